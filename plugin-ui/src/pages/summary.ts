/** The summary cards of the StoragePod and Datastore object views. */
import { h } from '../dom';
import * as f from '../format';
import { lineOf, peakIops, latencyAlpha } from '../lq';
import { routeHref } from '../route';
import { alert, dl } from '../ui';
import type { PageContext } from './context';
import { livePercentiles, metric } from './overview';
import { isPending } from './recommendations';

export async function summaryPage(ctx: PageContext): Promise<HTMLElement> {
  const hc = ctx.host.context();
  const dsName = ctx.route.params.datastore ?? (hc?.type === 'Datastore' ? hc.name ?? (await ctx.api.datastores()).find((d) => d.id === hc.moid)?.name : undefined);
  if (dsName) {
    const d = await ctx.api.datastore(dsName);
    const p = livePercentiles(d);
    const line = lineOf(d.datastore.model?.parameters);
    return h('div', { class: 'summary-card', 'data-testid': 'page-summary' },
      h('h1', { class: 'summary-title' }, `OpenSDRS — ${dsName}`),
      dl([
        ['Model', `${f.modelName(d.datastore.model?.kind)} (${d.datastore.model?.source})`],
        ['Latency p50 / p90', `${f.ms(metric(p, 'LATENCY_MS', 'p50'))} / ${f.ms(metric(p, 'LATENCY_MS', 'p90'))}`],
        ['Peak (1/slope)', line ? f.iops(peakIops(line)) : '—'],
        ['Congestion threshold', line && ctx.cluster ? f.ms(latencyAlpha(line, ctx.cluster.settings.congestionAlpha)) : '—'],
        ['Space used', d.datastore.space ? f.pct(d.datastore.space.utilizationPct) : '—'],
        ['Maintenance', d.datastore.maintenanceMode],
      ]),
      h('a', { href: routeHref('datastore', { cluster: ctx.cluster?.id }, dsName) }, 'Details and L-Q plot'));
  }
  const c = ctx.cluster;
  if (!c) return alert('info', 'No datastore cluster.');
  const recs = await ctx.api.recommendations(c.id, 1000);
  return h('div', { class: 'summary-card', 'data-testid': 'page-summary' },
    h('h1', { class: 'summary-title' }, `OpenSDRS — ${c.name}`),
    dl([
      ['Datastores', String(c.datastores)],
      ['Model', f.modelName(c.selectedModelKind)],
      ['Automation', c.settings.automationLevel],
      ['Pending recommendations', String(recs.filter(isPending).length)],
      ['Latency threshold', `${c.settings.latencyThresholdMs} ms`],
    ]),
    h('a', { href: routeHref('recommendations', { cluster: c.id }) }, 'Recommendations'));
}
