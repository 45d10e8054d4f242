import { h, clear } from '../dom';
import type { PlanResult } from '../api';
import * as f from '../format';
import { lineOf, qAlpha, qMax, workloadsThatFit } from '../lq';
import { alert, button, card, errorBox, pageHeader, table } from '../ui';
import type { PageContext } from './context';
import { livePercentiles, loadDatastores, metric, type DatastoreRow } from './overview';

interface Field {
  id: string;
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  help: string;
}

const FIELDS: Field[] = [
  { id: 'oio', label: 'Outstanding IOs per workload (O)', value: 4, min: 0.1, max: 1024, step: 0.1, help: 'mean IOs in flight' },
  { id: 'size', label: 'IO size in KiB (Z)', value: 8, min: 0.5, max: 4096, step: 0.5, help: '' },
  { id: 'read', label: 'Read share in % (R)', value: 70, min: 0, max: 100, step: 1, help: '' },
  { id: 'random', label: 'Randomness in % (X)', value: 80, min: 0, max: 100, step: 1, help: '' },
  { id: 'count', label: 'Number of workloads', value: 10, min: 1, max: 10000, step: 1, help: '' },
];

export async function plannerPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Capacity planner'), alert('info', 'No datastore cluster.'));
  const rows = await loadDatastores(ctx, c.id);
  const bound = c.settings.latencyThresholdMs;
  const alpha = c.settings.congestionAlpha;
  const inputs = new Map<string, HTMLInputElement>();
  const form = h('form', { class: 'clr-form clr-form-horizontal planner-form', 'aria-label': 'What-if workload', novalidate: true },
    FIELDS.map((fd) => {
      const input = h('input', { id: `plan-${fd.id}`, name: fd.id, type: 'number', class: 'clr-input', value: fd.value, min: fd.min, max: fd.max, step: fd.step, required: true });
      inputs.set(fd.id, input);
      return h('div', { class: 'clr-form-control' },
        h('label', { for: `plan-${fd.id}`, class: 'clr-control-label' }, fd.label),
        h('div', { class: 'clr-control-container' }, h('div', { class: 'clr-input-wrapper' }, input)));
    }));
  const out = h('div', { 'data-testid': 'plan-result', 'aria-live': 'polite' });
  const serverOut = h('div', { 'data-testid': 'plan-server' });

  const compute = async () => {
    const v = Object.fromEntries([...inputs].map(([k, el]) => [k, Number(el.value)]));
    clear(out);
    const bad = FIELDS.find((fd) => !(Number.isFinite(v[fd.id]) && v[fd.id] >= fd.min && v[fd.id] <= fd.max));
    if (bad) {
      out.append(alert('danger', `${bad.label}: must be a number from ${bad.min} to ${bad.max}.`, 'plan-error'));
      return;
    }
    out.append(localPlan(rows, v.oio, v.count, bound, alpha));
    clear(serverOut);
    try {
      const res = await ctx.api.plan(c.id, { workload: { outstandingIos: v.oio, ioSizeKb: v.size, readShare: v.read / 100, randomness: v.random / 100 }, count: v.count });
      serverOut.append(serverPlan(res));
    } catch (e) {
      serverOut.append(errorBox('Workload-specific plan from the server (every model, Z/R/X)', e));
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void compute();
  });
  form.append(h('div', { class: 'clr-form-control' }, button('Compute', () => void compute(), { kind: 'primary', testId: 'plan-compute' })));
  queueMicrotask(() => void compute());

  return h('div', { 'data-testid': 'page-planner' },
    pageHeader(`Capacity planner — ${c.name}`, `What-if: how many workloads like this fit under the ${bound} ms latency threshold`),
    card('Workload', form),
    card('Per datastore from its L-Q line (Pesto Eqs. 12, 13)', out),
    card('From the server', serverOut));
}

function localPlan(rows: DatastoreRow[], oio: number, count: number, bound: number, alpha: number): HTMLElement {
  type R = { name: string; model: string; qMax: number | null; qAlpha: number | null; current: number | null; fits: number | null };
  const rs: R[] = rows.map((r) => {
    const line = lineOf(r.ds.model?.parameters);
    const current = metric(livePercentiles(r.detail), 'OUTSTANDING_IOS', 'p90');
    return line
      ? { name: r.ds.name, model: `${f.modelName(r.ds.model.kind)} (${r.ds.model.source})`, qMax: qMax(line, bound), qAlpha: qAlpha(line, alpha), current, fits: workloadsThatFit(line, bound, oio, current ?? 0) }
      : { name: r.ds.name, model: f.modelName(r.ds.model?.kind), qMax: null, qAlpha: null, current, fits: null };
  });
  const total = rs.reduce((s, r) => s + (r.fits ?? 0), 0);
  return h('div', null,
    alert(total >= count ? 'success' : 'warning', `${total} of ${count} workloads fit in the cluster (${total >= count ? 'enough room' : `${count - total} do not fit`}). Pesto’s line depends on O only; Z, R and X need the workload-specific models on the server.`, 'plan-summary'),
    table<R>('Capacity per datastore', [
      { header: 'Datastore', cell: (r) => r.name },
      { header: 'Model', cell: (r) => r.model },
      { header: `Q_max at ${bound} ms`, numeric: true, cell: (r) => f.num(r.qMax, 1) },
      { header: `Q_α (α = ${alpha})`, numeric: true, cell: (r) => f.num(r.qAlpha, 1) },
      { header: 'Current OIO p90', numeric: true, cell: (r) => f.num(r.current, 1) },
      { header: 'Workloads that fit', numeric: true, cell: (r) => (r.fits === null ? 'no L-Q line' : r.fits) },
    ], rs, 'no datastores.', 'plan-table'));
}

function serverPlan(res: PlanResult): HTMLElement {
  return table('Server plan', [
    { header: 'Datastore', cell: (r: PlanResult['datastores'][number]) => r.name },
    { header: 'Model', cell: (r: PlanResult['datastores'][number]) => f.modelName(r.model) },
    { header: 'Q_max', numeric: true, cell: (r: PlanResult['datastores'][number]) => f.num(r.qMax, 1) },
    { header: 'Q_α', numeric: true, cell: (r: PlanResult['datastores'][number]) => f.num(r.qAlpha, 1) },
    { header: 'Fit', numeric: true, cell: (r: PlanResult['datastores'][number]) => r.fits },
  ], res.datastores);
}
