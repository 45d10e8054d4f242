import { h, clear } from '../dom';
import type { ExplanationView, RecommendationDetail, RecommendationView } from '../api';
import type { Names } from './names';
import * as f from '../format';
import { routeHref } from '../route';
import { alert, badge, button, errorBox, pageHeader, table } from '../ui';
import type { PageContext } from './context';
import { loadNames } from './names';

export function isPending(r: RecommendationView): boolean {
  return /^(pending|new|open)$/i.test(r.state);
}

export async function recommendationsPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Recommendations'), alert('info', 'No datastore cluster.'));
  const [recs, names] = await Promise.all([ctx.api.recommendations(c.id), loadNames(ctx.api, c.id)]);
  const status = h('div', { class: 'status-area', 'aria-live': 'polite', 'data-testid': 'rec-status' });
  const pending = recs.filter(isPending);
  const done = recs.filter((r) => !isPending(r));
  const why = await explanations(ctx, [...pending, ...done.slice(0, EXPLAINED_DONE)]);

  // The page follows what it applied only while it is shown. Left (another page, or a re-render), it stops polling
  // and refreshes nothing: a refresh then would re-render whatever page the administrator went to, mid-read.
  let shown = true;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  ctx.onLeave(() => {
    shown = false;
    clearTimeout(refreshTimer);
  });

  // While a recommendation is applied, dismissed or cancelled, no other Apply, Dismiss or Apply all can be clicked:
  // a second click would act on a plan the first is changing. They come back only if the action ends without a refresh.
  const actionButtons = () => Array.from(root.querySelectorAll<HTMLButtonElement>(
    '[data-testid^="apply-"], [data-testid^="dismiss-"], [data-testid^="cancel-"]'));
  const act = async (r: RecommendationView, what: 'apply' | 'dismiss' | 'cancel') => {
    const held = actionButtons().filter((b) => !b.disabled);
    held.forEach((b) => { b.disabled = true; });
    const release = () => held.forEach((b) => { b.disabled = false; });
    clear(status);
    status.append(h('span', null, `${what === 'apply' ? 'Applying' : what === 'dismiss' ? 'Dismissing' : 'Cancelling'} recommendation ${r.id}…`));
    try {
      let out = what === 'apply' ? await ctx.api.applyRecommendation(r.id)
        : what === 'dismiss' ? await ctx.api.dismissRecommendation(r.id) : await ctx.api.cancelRecommendation(r.id);
      // follow the storage vMotions until the recommendation is done one way or another
      const deadline = Date.now() + 10 * 60 * 1000;
      while (shown && out && /^(APPLYING)$/i.test(out.state) && Date.now() < deadline) {
        clear(status);
        status.append(alert('info', `Recommendation ${r.id}: ${out.state} — ${progressText(out, names)}`, 'rec-progress'));
        await new Promise((res) => setTimeout(res, 1500));
        if (!shown) break;
        out = await ctx.api.recommendation(r.id);
      }
      if (!shown) return;
      clear(status);
      if (out && /^(FAILED)$/i.test(out.state)) {
        status.append(alert('danger', `Recommendation ${r.id} failed: ${out.faultType ?? ''} ${out.faultMessage ?? ''}`.trim(), 'rec-failed'));
      } else {
        status.append(alert('success', `Recommendation ${r.id}: ${out?.state ?? 'done'}${out?.actions?.length ? ` — ${progressText(out, names)}` : ''}.`, 'rec-done'));
      }
      refreshTimer = setTimeout(() => ctx.refresh(), 1500);
    } catch (e) {
      clear(status);
      status.append(errorBox(what === 'apply' ? 'Apply' : what === 'dismiss' ? 'Dismiss' : 'Cancel', e));
      release();
    }
  };

  const cols = (withActions: boolean) => [
    { header: 'Reason', cell: (r: RecommendationView) => h('span', { title: r.reason }, f.reason(r.reason)) },
    { header: 'VM / disk', cell: (r: RecommendationView) => f.diskLabel(r.vm, r.diskKey, names.vm(r.vm), r.homeOnly) },
    { header: 'Source → destination', cell: (r: RecommendationView) => {
      const s = names.datastore(r.source);
      const d = names.datastore(r.destination);
      return [h('a', { href: routeHref('datastore', { cluster: c.id }, s) }, s), ' → ', h('a', { href: routeHref('datastore', { cluster: c.id }, d) }, d)];
    } },
    { header: 'Why', cell: (r: RecommendationView) => h('span', { 'data-testid': `why-${r.id}` }, whyText(why.get(r.id))) },
    { header: 'Mean latency before → after', cell: (r: RecommendationView) => h('span', { 'data-testid': `forecast-${r.id}` },
      forecastText(why.get(r.id))) },
    { header: 'Confidence', numeric: true, cell: (r: RecommendationView) => (r.confidence == null ? '—' : f.pct(r.confidence * 100, 0)) },
    { header: 'Model', cell: (r: RecommendationView) => h('span', { 'data-testid': `model-${r.id}` }, modelsOf(why.get(r.id))) },
    { header: 'Created', cell: (r: RecommendationView) => f.instant(r.createdAt) },
    withActions
      ? { header: 'Actions', cell: (r: RecommendationView) => h('div', { class: 'btn-group' },
        button('Apply', () => void act(r, 'apply'), { kind: 'primary', small: true, ariaLabel: `Apply recommendation ${r.id}`, testId: `apply-${r.id}` }),
        button('Dismiss', () => void act(r, 'dismiss'), { small: true, ariaLabel: `Dismiss recommendation ${r.id}`, testId: `dismiss-${r.id}` })) }
      : { header: 'State', cell: (r: RecommendationView) => [
        badge(r.state, /^applied$/i.test(r.state) ? 'success' : /^failed$/i.test(r.state) ? 'danger' : /^applying$/i.test(r.state) ? 'info' : 'neutral'),
        /^applying$/i.test(r.state) ? button('Cancel', () => void act(r, 'cancel'), { small: true, kind: 'link', ariaLabel: `Cancel recommendation ${r.id}`, testId: `cancel-${r.id}` }) : null] },
  ];

  const root = h('div', { 'data-testid': 'page-recommendations' },
    pageHeader(`Recommendations — ${c.name}`, `Automation level ${c.settings.automationLevel}; ${pending.length} pending`,
      button('Apply all', () => ctx.host.openModal(routeHref('modal/apply', { cluster: c.id }), 'Apply Storage DRS recommendations', () => ctx.refresh()), { kind: 'primary', small: true, testId: 'apply-all', disabled: pending.length === 0 }),
      button('Run Storage DRS now', () => ctx.host.openModal(routeHref('modal/run-now', { cluster: c.id }), 'Run Storage DRS now', () => ctx.refresh()), { small: true, testId: 'run-now' })),
    status,
    table('Pending recommendations', cols(true), pending, 'none — the cluster is balanced or Storage DRS has not run yet.', 'pending-table'),
    table('Earlier recommendations', cols(false), done, 'none.', 'done-table'));
  return root;
}

/** "db-01 disk 2000 → ssd-01 RUNNING 40 %; …", a queued move with what it waits for (a parent move, a limit). */
export function progressText(r: RecommendationDetail, names: Names): string {
  return (r.actions ?? []).map((a) => {
    const what = `${names.vm(a.vmId)}${a.diskKeys?.length ? ` disk ${a.diskKeys.join(', ')}` : ''} → ${names.datastore(a.destinationDatastoreId)}`;
    const prog = a.progress != null && /RUNNING/i.test(a.state) ? ` ${a.progress} %` : '';
    const waiting = a.waitReason && /QUEUED/i.test(a.state) ? ` (${a.waitReason})` : '';
    const fault = a.faultMessage ? ` (${a.faultMessage})` : '';
    return `${what} ${a.state}${prog}${waiting}${fault}`;
  }).join('; ') || 'no actions';
}

/** How many of the earlier recommendations, newest first, are shown with their explanation (one request each). */
const EXPLAINED_DONE = 20;

/**
 * Each recommendation's explanation, by id, asked only for those the server says the engine explained; null where
 * there is none (an administrator's or a workflow's move), so the page says that instead of a blank.
 */
async function explanations(ctx: PageContext, recs: RecommendationView[]): Promise<Map<number, ExplanationView | null>> {
  const out = new Map<number, ExplanationView | null>();
  await Promise.all(recs.map(async (r) => {
    if (!r.explained) {
      out.set(r.id, null);
      return;
    }
    try {
      out.set(r.id, await ctx.api.explanation(r.id));
    } catch {
      out.set(r.id, null);
    }
  }));
  return out;
}

/** The engine's own sentence: what moves, why, and its expected benefit and cost in the units it weighed them in. */
export function whyText(e: ExplanationView | null | undefined): string {
  if (!e) return 'no explanation: not planned by the balancing engine (an administrator\'s or a workflow\'s move)';
  return e.summary;
}

/** "silver-10k1 96.35 → 58.20 ms [51.1–65.3]; silver-7k1 idle → 12.40 ms", per affected datastore. */
export function forecastText(e: ExplanationView | null | undefined): string {
  if (!e || !e.datastores?.length) return '—';
  return e.datastores.map((d) => {
    const before = d.idleBefore || !d.latencyBeforeMs ? 'idle' : f.ms(d.latencyBeforeMs.value);
    const after = d.idleAfter || !d.latencyAfterMs ? 'idle' : f.ms(d.latencyAfterMs.value);
    const range = !d.idleAfter && d.latencyAfterMs && d.latencyAfterMs.lower !== d.latencyAfterMs.upper
      ? ` [${f.num(d.latencyAfterMs.lower, 1)}–${f.num(d.latencyAfterMs.upper, 1)}]` : '';
    return `${d.datastoreName} ${before} → ${after}${range}`;
  }).join('; ');
}

/** The models that predicted the move, as the explanation names them per datastore. */
export function modelsOf(e: ExplanationView | null | undefined): string {
  if (!e || !e.datastores?.length) return '—';
  return [...new Set(e.datastores.map((d) => f.modelName(d.model)))].join(', ');
}
