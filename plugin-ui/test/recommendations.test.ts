import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient, ClusterView, RecommendationDetail, RecommendationView } from '../src/api';
import type { Host } from '../src/host';
import type { PageContext } from '../src/pages/context';
import { progressText, recommendationsPage } from '../src/pages/recommendations';
import { parseRoute } from '../src/route';

const pending: RecommendationView = {
  id: 7, vm: 'vm-1', diskKey: 2000, source: 'datastore-1', destination: 'datastore-2', reason: 'balanceDatastoreIOLoad',
  benefit: 10, cost: 1, confidence: 0.9, state: 'PENDING', createdAt: '2026-11-26T10:00:00Z', homeOnly: false,
};

function detail(state: string): RecommendationDetail {
  // the server writes these strings as null; the generated types do not say so (README)
  return { id: 7, clusterId: 'group-p1', reasonCode: 'balanceDatastoreIOLoad', state, cancelRequested: false, faultType: null,
    faultMessage: null, createdAt: '2026-11-26T10:00:00Z', updatedAt: null, actions: [] } as unknown as RecommendationDetail;
}

/** The recommendations page over a fake server; {@code leave} plays the app leaving the page. */
function page(applied: string, polled: string[]) {
  const leaving: Array<() => void> = [];
  const refresh = vi.fn();
  const recommendation = vi.fn(async () => detail(polled.shift() ?? 'APPLIED'));
  const api = {
    recommendations: async () => [pending],
    datastores: async () => [],
    disks: async () => [],
    applyRecommendation: async () => detail(applied),
    recommendation,
  } as unknown as ApiClient;
  const cluster = { id: 'group-p1', name: 'pod1', settings: { automationLevel: 'manual' } } as unknown as ClusterView;
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
