import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ClusterView, ExplanationView, RecommendationDetail, RecommendationView } from '../src/api';
import type { Host } from '../src/host';
import type { PageContext } from '../src/pages/context';
import { progressText, recommendationsPage } from '../src/pages/recommendations';
import { parseRoute } from '../src/route';

const pending: RecommendationView = {
  id: 7, vm: 'vm-1', diskKey: 2000, source: 'datastore-1', destination: 'datastore-2', reason: 'balanceDatastoreIOLoad',
  benefit: 10, cost: 1, confidence: 0.9, state: 'PENDING', createdAt: '2026-11-26T10:00:00Z', homeOnly: false, explained: false,
};

function detail(state: string): RecommendationDetail {
  // the server writes these strings as null; the generated types do not say so (README)
  return { id: 7, clusterId: 'group-p1', reasonCode: 'balanceDatastoreIOLoad', state, cancelRequested: false, faultType: null,
    faultMessage: null, createdAt: '2026-11-26T10:00:00Z', updatedAt: null, actions: [] } as unknown as RecommendationDetail;
}

/** The recommendations page over a fake server; {@code leave} plays the app leaving the page. */
function page(applied: string, polled: string[], explanation?: ExplanationView) {
  const listed = { ...pending, explained: explanation !== undefined };
  const leaving: Array<() => void> = [];
  const refresh = vi.fn();
  const recommendation = vi.fn(async () => detail(polled.shift() ?? 'APPLIED'));
  const api = {
    recommendations: async () => [listed],
    datastores: async () => [],
    disks: async () => [],
    applyRecommendation: async () => detail(applied),
    recommendation,
    explanation: async () => {
      if (!explanation) throw new Error('not available');
      return explanation;
    },
  } as unknown as ApiClient;
  const cluster = { id: 'group-p1', name: 'pod1', selectedModelKind: 'queueing', settings: { automationLevel: 'manual' } } as unknown as ClusterView;
  const ctx: PageContext = {
    api, host: {} as Host, route: parseRoute('#/recommendations'), cluster, clusters: [cluster], refresh,
    navigate: () => undefined, onLeave: (fn) => leaving.push(fn),
  };
  return { ctx, refresh, recommendation, leave: () => leaving.splice(0).forEach((fn) => fn()) };
}

async function clickApply(el: HTMLElement): Promise<void> {
  (el.querySelector('[data-testid="apply-7"]') as HTMLButtonElement).click();
  await vi.advanceTimersByTimeAsync(0);
}

describe('recommendations page', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('refreshes itself 1.5 s after an apply ends while it is shown', async () => {
    const p = page('APPLIED', []);
    const el = await recommendationsPage(p.ctx);
    await clickApply(el);
    expect(el.querySelector('[data-testid="rec-done"]')?.textContent).toContain('Recommendation 7: APPLIED');
    await vi.advanceTimersByTimeAsync(1500);
    expect(p.refresh).toHaveBeenCalledTimes(1);
  });

  it('left before then, it refreshes nothing: the page the administrator went to is not re-rendered', async () => {
    const p = page('APPLIED', []);
    const el = await recommendationsPage(p.ctx);
    await clickApply(el);
    p.leave();
    await vi.advanceTimersByTimeAsync(5000);
    expect(p.refresh).not.toHaveBeenCalled();
  });

  it('left while following an apply, it stops polling the recommendation', async () => {
    const p = page('APPLYING', ['APPLYING', 'APPLYING', 'APPLYING']);
    const el = await recommendationsPage(p.ctx);
    await clickApply(el);
    await vi.advanceTimersByTimeAsync(1500);
    expect(p.recommendation).toHaveBeenCalledTimes(1);
    p.leave();
    await vi.advanceTimersByTimeAsync(10000);
    expect(p.recommendation).toHaveBeenCalledTimes(1);
    expect(p.refresh).not.toHaveBeenCalled();
  });

  it("shows each recommendation's reason, forecast and models from its explanation, not the cluster's model kind", async () => {
    const why = {
      recommendationId: 7, summary: 'move db disk 2000 from gold-7k1 to gold-ssd1: a gain of 12.00 ms per outstanding IO over 16 h',
      datastores: [
        { datastoreId: 'datastore-1', datastoreName: 'gold-7k1', model: 'pesto', idleBefore: false, idleAfter: false,
          latencyBeforeMs: { value: 35.2, lower: 35.2, upper: 35.2 }, latencyAfterMs: { value: 20.4, lower: 18.1, upper: 22.6 } },
        { datastoreId: 'datastore-2', datastoreName: 'gold-ssd1', model: 'romano', idleBefore: true, idleAfter: false,
          latencyBeforeMs: null, latencyAfterMs: { value: 0.31, lower: 0.31, upper: 0.31 } },
      ],
    } as unknown as ExplanationView;
    const el = await recommendationsPage(page('APPLIED', [], why).ctx);
    expect(el.querySelector('[data-testid="why-7"]')?.textContent).toBe(why.summary);
    expect(el.querySelector('[data-testid="forecast-7"]')?.textContent)
      .toBe('gold-7k1 35.2 ms → 20.4 ms [18.1–22.6]; gold-ssd1 idle → 0.31 ms');
    expect(el.querySelector('[data-testid="model-7"]')?.textContent).toBe('Pesto (L-Q slope), Romano');
    // without one (an administrator's move) the page says so instead of a blank
    const bare = await recommendationsPage(page('APPLIED', []).ctx);
    expect(bare.querySelector('[data-testid="why-7"]')?.textContent).toContain('not planned by the balancing engine');
    expect(bare.querySelector('[data-testid="model-7"]')?.textContent).toBe('—');
  });

  it('holds Apply, Dismiss and Apply all while an apply runs, and gives them back when it is refused', async () => {
    const p = page('APPLIED', []);
    let refuse: (e: Error) => void = () => undefined;
    (p.ctx.api as unknown as { applyRecommendation: () => Promise<RecommendationDetail> }).applyRecommendation =
      () => new Promise<RecommendationDetail>((_, reject) => { refuse = reject; });
    const el = await recommendationsPage(p.ctx);
    const buttons = ['apply-7', 'dismiss-7', 'apply-all'].map((id) => el.querySelector(`[data-testid="${id}"]`) as HTMLButtonElement);
    expect(buttons.map((b) => b.disabled)).toEqual([false, false, false]);
    await clickApply(el);
    expect(buttons.map((b) => b.disabled)).toEqual([true, true, true]);
    refuse(new Error('409 the plan changed'));
    await vi.advanceTimersByTimeAsync(0);
    expect(buttons.map((b) => b.disabled)).toEqual([false, false, false]);
  });

  it('says what a queued move waits for while it is applied', () => {
    const names = { datastore: (x: string) => ({ 'datastore-2': 'x' } as Record<string, string>)[x] ?? x, vm: () => 'y-small' };
    const waiting = { vmId: 'vm-2', diskKeys: [2000], destinationDatastoreId: 'datastore-2', state: 'QUEUED', progress: null,
      faultMessage: null, waitReason: 'waiting for its parent, action 12 of recommendation 5, to end (it is RUNNING)' };
    const r = { ...detail('APPLYING'), actions: [waiting] } as unknown as RecommendationDetail;
    expect(progressText(r, names)).toBe('y-small disk 2000 → x QUEUED (waiting for its parent, action 12 of recommendation 5, to end (it is RUNNING))');
    const started = { ...waiting, state: 'RUNNING', progress: 40, waitReason: null };
    expect(progressText({ ...r, actions: [started] } as unknown as RecommendationDetail, names)).toBe('y-small disk 2000 → x RUNNING 40 %');
  });
});
