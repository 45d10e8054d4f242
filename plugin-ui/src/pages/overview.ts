import { h } from '../dom';
import type { ClusterView, DatastoreDetail, DatastoreView, PercentilesView } from '../api';
import * as f from '../format';
import { latencyAlpha, lineOf, peakIops } from '../lq';
import { routeHref } from '../route';
import { badge, button, errorBox, meter, pageHeader, table, alert } from '../ui';
import type { PageContext } from './context';

export interface DatastoreRow {
  ds: DatastoreView;
  detail: DatastoreDetail | null;
  error?: unknown;
}

/** The shortest window's percentiles (the live view). */
export function livePercentiles(d: DatastoreDetail | null): PercentilesView | null {
  return d?.percentiles?.[0] ?? null;
}

export function metric(p: PercentilesView | null, name: string, q: 'p50' | 'p70' | 'p90'): number | null {
  const v = p?.metrics?.[name]?.[q];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export async function loadDatastores(ctx: PageContext, clusterId: string): Promise<DatastoreRow[]> {
  const list = await ctx.api.datastores(clusterId);
  return Promise.all(list.map(async (ds) => {
    try {
      return { ds, detail: await ctx.api.datastore(ds.name) };
    } catch (error) {
      return { ds, detail: null, error };
    }
  }));
}

export async function overviewPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Datastore cluster'), alert('info', 'The server knows no datastore cluster yet (inventory not synchronised with vCenter).', 'no-clusters'));
  const rows = await loadDatastores(ctx, c.id);
  const alpha = c.settings.congestionAlpha;
  const thresholdMs = c.settings.latencyThresholdMs;

  const tableEl = table<DatastoreRow>(`Datastores of ${c.name}`, [
    { header: 'Datastore', cell: (r) => h('a', { href: routeHref('datastore', { cluster: c.id }, r.ds.name), 'data-testid': 'ds-link' }, r.ds.name) },
    { header: 'State', cell: (r) => [
      r.ds.accessible ? null : badge('inaccessible', 'danger'),
      r.ds.maintenanceMode && r.ds.maintenanceMode !== 'normal' ? badge(`maintenance: ${r.ds.maintenanceMode}`, 'warning') : null,
      r.ds.accessible && (!r.ds.maintenanceMode || r.ds.maintenanceMode === 'normal') ? badge('normal', 'success') : null] },
    { header: 'Model', cell: (r) => [f.modelName(r.ds.model?.kind), ' ',
      h('span', { class: 'muted' }, `(${r.ds.model?.source ?? '—'}${r.ds.model?.rSquared != null ? `, R² ${f.num(r.ds.model.rSquared, 3)}` : ''})`)] },
    { header: 'Latency p50', numeric: true, cell: (r) => f.ms(metric(livePercentiles(r.detail), 'LATENCY_MS', 'p50')) },
    { header: 'Latency p90', numeric: true, cell: (r) => {
      const v = metric(livePercentiles(r.detail), 'LATENCY_MS', 'p90');
      return h('span', { class: v !== null && v > thresholdMs ? 'over' : '' }, f.ms(v));
    } },
    { header: 'Space used', cell: (r) => r.ds.space
      ? meter(r.ds.space.utilizationPct, 100, `${f.pct(r.ds.space.utilizationPct)} of ${f.bytes(r.ds.space.capacityBytes)}`,
        `Space used on ${r.ds.name}`, c.settings.spaceThresholdPct / 100 - 0.05, c.settings.spaceThresholdPct / 100)
      : '—' },
    { header: 'IOPS p90 / peak', cell: (r) => {
      const line = lineOf(r.ds.model?.parameters);
      const io = metric(livePercentiles(r.detail), 'IOPS', 'p90');
      if (!line) return f.iops(io);
      const peak = peakIops(line);
      return meter(io, peak, `${f.iops(io)} / ${f.iops(peak)}`, `IOPS against peak on ${r.ds.name}`);
    } },
    { header: `Congestion threshold (α = ${alpha})`, numeric: true, cell: (r) => {
      const line = lineOf(r.ds.model?.parameters);
      return line ? f.ms(latencyAlpha(line, alpha)) : '—';
    } },
    { header: 'Samples (window)', numeric: true, cell: (r) => {
      const p = livePercentiles(r.detail);
      return p ? `${p.samples.toLocaleString('en-US')} (${f.window(p.window)})` : r.error ? 'error' : '—';
    } },
  ], rows, 'the cluster has no datastores.', 'datastores-table');

  const actions = [
    button('Run Storage DRS now', () => ctx.host.openModal(routeHref('modal/run-now', { cluster: c.id }), 'Run Storage DRS now', () => ctx.refresh()), { kind: 'primary', small: true, testId: 'run-now' }),
    button('Settings', () => ctx.host.openModal(routeHref('modal/settings', { cluster: c.id }), `Storage DRS settings of ${c.name}`, () => ctx.refresh()), { small: true, testId: 'open-settings' }),
  ];
  return h('div', { 'data-testid': 'page-overview' },
    pageHeader(c.name, [`Datacenter ${c.datacenter} · ${c.datastores} datastores · model ${f.modelName(c.selectedModelKind)}`,
      c.modelKind === 'auto' ? ' (automatic selection)' : '', ` · automation ${c.settings.automationLevel} · I/O latency threshold ${c.settings.latencyThresholdMs} ms · space threshold ${c.settings.spaceThresholdPct} %`], ...actions),
    statusBar(c, rows),
    c.settings.storageDrsEnabled === false
      ? alert('warning', 'Storage DRS is turned off for this datastore cluster (in vCenter too): no balancing run is made, scheduled or asked for; its pending recommendations are withdrawn; a datastore entering maintenance mode gets no evacuation recommendations, and no initial placement is made. Turn it on in Settings.', 'storage-drs-off')
      : null,
    tableEl,
    ...rows.filter((r) => r.error).map((r) => errorBox(`Datastore ${r.ds.name}`, r.error)));
}

/**
 * Storage DRS at a glance, as the vSphere Client's Storage DRS tab gives it: what awaits the administrator, the last
 * and next run, the faults of the last day, and the datastore furthest over the I/O latency threshold (from the same
 * live p90s as the table), with a warning when one is over it and nothing is pending.
 */
export function statusBar(c: ClusterView, rows: DatastoreRow[]): HTMLElement {
  const s = c.status;
  const worst = rows.map((r) => ({ name: r.ds.name, p90: metric(livePercentiles(r.detail), 'LATENCY_MS', 'p90') }))
    .filter((r): r is { name: string; p90: number } => r.p90 !== null)
    .sort((a, b) => b.p90 - a.p90)[0];
  const threshold = c.settings.latencyThresholdMs;
  const over = worst !== undefined && worst.p90 > threshold;
  const parts = [
    h('span', { 'data-testid': 'status-pending' }, f.count(s.pendingRecommendations, 'pending recommendation')),
    h('span', { 'data-testid': 'status-last-run' }, s.lastRunAt ? `last run ${f.instant(s.lastRunAt)} (${s.lastRunTrigger})` : 'no run yet'),
    h('span', { 'data-testid': 'status-next-run' }, s.nextRunAt ? `next run ${f.instant(s.nextRunAt)}` : 'no run scheduled'),
    h('span', { 'data-testid': 'status-faults' }, f.count(s.faultsLast24h, 'fault') + ' in 24 h'),
    h('span', { 'data-testid': 'status-worst' }, worst ? `worst p90 ${f.ms(worst.p90)} on ${worst.name} (threshold ${threshold} ms)` : 'no latency measured yet'),
  ];
  const bar = h('p', { class: 'status-bar', 'data-testid': 'sdrs-status' }, ...parts.flatMap((p, i) => (i ? [' · ', p] : [p])));
  if (over && s.pendingRecommendations === 0) {
    return h('div', null, bar, alert('warning', `${worst.name} is over the ${threshold} ms I/O latency threshold (p90 ${f.ms(worst.p90)}) and no recommendation is pending: `
      + (s.lastRunAt ? 'the last run found no move whose benefit outweighs its cost; see History for its notes.' : 'Storage DRS has not run yet.'), 'status-over-threshold'));
  }
  return bar;
}
