import { h } from '../dom';
import type { DiskView, LeftView, MaintenanceStatusView, ModelView, PercentilesView } from '../api';
import * as f from '../format';
import { fitLine, latencyAlpha, lineOf, peakIops } from '../lq';
import { lqPlot } from '../chart';
import { routeHref } from '../route';
import { alert, badge, button, card, dl, errorBox, pageHeader, table } from '../ui';
import type { PageContext } from './context';

const METRICS: Array<[string, string, (v: number | null) => string]> = [
  ['LATENCY_MS', 'Latency', f.ms],
  ['OUTSTANDING_IOS', 'Outstanding IOs', (v) => f.num(v)],
  ['IOPS', 'IOPS', f.iops],
  ['IO_SIZE_KB', 'IO size (KiB)', (v) => f.num(v, 1)],
  ['READ_SHARE', 'Read share', (v) => (v === null ? '—' : f.pct(v * 100, 0))],
  ['RANDOMNESS', 'Randomness', (v) => (v === null ? '—' : f.pct(v * 100, 0))],
];

export async function datastorePage(ctx: PageContext): Promise<HTMLElement> {
  let name = ctx.route.arg;
  const hc = ctx.host.context();
  if (!name && hc?.type === 'Datastore') {
    name = hc.name ?? (await ctx.api.datastores()).find((d) => d.id === hc.moid)?.name;
  }
  if (!name) return h('div', null, pageHeader('Datastore'), alert('info', 'No datastore selected.'));
  const [detail, model, disks, maintenance] = await Promise.all([
    ctx.api.datastore(name),
    ctx.api.model(name).catch((e) => e as Error),
    ctx.api.disks(name).catch((e) => e as Error),
    // a datastore outside a cluster has no Storage DRS maintenance mode (409), an older server no such endpoint
    ctx.api.maintenanceStatus(name).catch(() => null),
  ]);
  const ds = detail.datastore;
  const alpha = ctx.cluster?.settings.congestionAlpha ?? 0.9;

  const modelCard = (() => {
    if (model instanceof Error) return errorBox('Model', model);
    const m = (model as ModelView).model;
    const line = lineOf(m.parameters) ?? fitLine(m.fitPoints ?? []);
    const plot = lqPlot(`L-Q plot of ${name}`, m.fitPoints ?? [], line, ctx.cluster?.settings.latencyThresholdMs ?? null);
    queueMicrotask(() => requestAnimationFrame(() => plot.redraw()));
    ctx.host.onThemeChange(() => plot.redraw());
    ctx.onLeave(plot.destroy);
    return card('Model and L-Q plot',
      dl([
        ['Model', `${f.modelName(m.kind)} (${m.source})`],
        ['Fitted', f.instant(m.fittedAt)],
        ['R²', f.num(m.rSquared, 3)],
        ['Points', String(m.points)],
        ['Parameters', Object.entries(m.parameters ?? {}).map(([k, v]) => `${k} = ${f.num(v, 4)}`).join(', ') || '—'],
        ['Peak (1/slope)', line ? f.iops(peakIops(line)) : '—'],
        [`Congestion threshold L_α (α = ${alpha})`, line ? f.ms(latencyAlpha(line, alpha)) : '—'],
        ['Cluster model', f.modelName((model as ModelView).clusterModelKind)],
        ['Note', m.invalidReason ?? (m.source === 'default' ? 'default model' : '—')],
      ]),
      (m.fitPoints ?? []).length === 0 && m.source === 'default'
        ? alert('info', 'No measured points yet: this is Pesto’s default model (average slope of the other datastores). The line is drawn without points.')
        : null,
      plot.el,
      heldOut((model as ModelView).heldOutErrorMs));
  })();

  const windows = table<PercentilesView>(`Percentiles of ${name} per window`, [
    { header: 'Window', cell: (p) => f.window(p.window) },
    { header: 'Samples', numeric: true, cell: (p) => p.samples.toLocaleString('en-US') },
    ...METRICS.flatMap(([key, label, fmt]) => [
      { header: `${label} p50`, numeric: true, cell: (p: PercentilesView) => fmt(p.metrics?.[key]?.p50 ?? null) },
      { header: `${label} p90`, numeric: true, cell: (p: PercentilesView) => fmt(p.metrics?.[key]?.p90 ?? null) },
    ]),
  ], detail.percentiles ?? [], 'no statistics received yet.', 'percentiles-table');

  const disksEl = disks instanceof Error ? errorBox('Virtual disks', disks) : table<DiskView>(`Virtual disks on ${name}`, [
    { header: 'VM', cell: (d) => d.vmName },
    { header: 'Disk', numeric: true, cell: (d) => d.diskKey },
    { header: 'File', cell: (d) => h('code', null, d.file) },
    { header: 'Size', numeric: true, cell: (d) => f.bytes(d.sizeBytes) },
  ], disks as DiskView[], 'no virtual disks.', 'disks-table');

  const inMaint = ds.maintenanceMode && ds.maintenanceMode !== 'normal';
  const maint = button(inMaint ? 'Exit maintenance mode' : 'Enter maintenance mode',
    () => ctx.host.openModal(routeHref('modal/maintenance', { datastore: name, mode: inMaint ? 'exit' : 'enter', cluster: ctx.cluster?.id }),
      `${inMaint ? 'Exit' : 'Enter'} maintenance mode: ${name}`, () => ctx.refresh()),
    { small: true, testId: 'maintenance' });

  return h('div', { 'data-testid': 'page-datastore' },
    pageHeader(name, [
      ctx.cluster ? h('a', { href: routeHref('overview', { cluster: ctx.cluster.id }) }, ctx.cluster.name) : 'no cluster',
      ` · ${detail.hosts.length} hosts · ${detail.disks} virtual disks · space ${ds.space ? `${f.bytes(ds.space.capacityBytes - ds.space.freeBytes)} used of ${f.bytes(ds.space.capacityBytes)}` : '—'}`,
      ` · ${ds.accessible ? 'accessible' : 'inaccessible'} · maintenance ${ds.maintenanceMode}`,
    ], maint),
    maintenanceCard(name, maintenance),
    modelCard,
    card('Statistics', windows),
    card('Hosts', detail.hosts.length ? h('ul', { class: 'list-unstyled' }, detail.hosts.map((x) => h('li', null, x))) : h('p', null, 'No hosts mount it.')),
    card('Virtual disks', disksEl));
}

/** While the datastore is in (or entering) maintenance mode: what is still on it and where each stands in the evacuation. */
function maintenanceCard(name: string, m: MaintenanceStatusView | null): HTMLElement | null {
  if (!m || m.state === 'NORMAL') return null;
  const entering = m.state === 'ENTERING';
  return card(`Maintenance mode: ${entering ? 'entering' : 'in maintenance'}`,
    entering && !m.evacuationPlanned
      ? alert('warning', 'Storage DRS is turned off for the datastore cluster: no evacuation is planned. What is listed stays until it is moved by hand, or until Storage DRS is turned on.', 'maintenance-unplanned')
      : null,
    entering
      ? h('p', { class: 'muted' }, `${name} enters maintenance mode once nothing below is left on it (vCenter waits for every VM file, homes included).`)
      : null,
    m.left.length
      ? h('p', { 'data-testid': 'maintenance-left-total' }, f.leftSummary(m.left))
      : null,
    table<LeftView>(`Still on ${name}`, [
      { header: 'VM', cell: (l) => l.vmName },
      { header: 'What', cell: (l) => l.what },
      { header: 'Size', numeric: true, cell: (l) => f.bytes(l.sizeBytes) },
      { header: 'Standing', cell: (l) => { const s = f.standing(l.status); return badge(s.label, s.kind, l.status); } },
      { header: 'Recommendation', numeric: true, cell: (l) => (l.recommendationId === null ? '—' : String(l.recommendationId)) },
      { header: 'Detail', cell: (l) => l.detail ?? '—' },
    ], m.left, 'nothing: every disk and VM home has left.', 'maintenance-left-table'));
}

function heldOut(e: Record<string, number> | undefined): HTMLElement | null {
  const entries = Object.entries(e ?? {});
  if (!entries.length) return h('p', { class: 'muted' }, 'Held-out error: no scored observations yet.');
  return table<[string, number]>('Held-out mean absolute error per model', [
    { header: 'Model', cell: ([k]) => f.modelName(k) },
    { header: 'Mean abs. error', numeric: true, cell: ([, v]) => f.ms(v) },
  ], entries);
}
