import { h, clear } from '../dom';
import type { CapacityPlanView, DatastoreCapacityView } from '../api';
import * as f from '../format';
import { alert, button, card, errorBox, pageHeader, table } from '../ui';
import type { PageContext } from './context';

interface Field {
  id: string;
  label: string;
  value: number | '';
  min: number;
  max: number;
  step: number;
  /** may be left empty: the server then uses the cluster's own value */
  optional?: boolean;
}

const FIELDS: Field[] = [
  { id: 'oio', label: 'Outstanding IOs per workload (O)', value: 4, min: 0.1, max: 4096, step: 0.1 },
  { id: 'size', label: 'IO size in KiB (Z)', value: 8, min: 0.5, max: 4096, step: 0.5 },
  { id: 'read', label: 'Read share in % (R)', value: 70, min: 0, max: 100, step: 1 },
  { id: 'random', label: 'Randomness in % (X)', value: 80, min: 0, max: 100, step: 1 },
  { id: 'count', label: 'Number of workloads', value: 10, min: 1, max: 100000, step: 1 },
  { id: 'disk', label: 'Disk space per workload in GB (empty: the cluster\u2019s average disk)', value: '', min: 0.001, max: 65536, step: 1, optional: true },
];

/**
 * The what-if capacity planner: the server plans it (POST /clusters/{id}/capacity-plan, Pesto §5.5) from the
 * cluster's current models and load, and the page shows its answer.
 */
export async function plannerPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Capacity planner'), alert('info', 'No datastore cluster.'));
  const inputs = new Map<string, HTMLInputElement>();
  const form = h('form', { class: 'clr-form clr-form-horizontal planner-form', 'aria-label': 'What-if workload', novalidate: true },
    FIELDS.map((fd) => {
      const input = h('input', { id: `plan-${fd.id}`, name: fd.id, type: 'number', class: 'clr-input', value: fd.value, min: fd.min, max: fd.max, step: fd.step, required: !fd.optional });
      inputs.set(fd.id, input);
      return h('div', { class: 'clr-form-control' },
        h('label', { for: `plan-${fd.id}`, class: 'clr-control-label' }, fd.label),
        h('div', { class: 'clr-control-container' }, h('div', { class: 'clr-input-wrapper' }, input)));
    }));
  const out = h('div', { 'data-testid': 'plan-result', 'aria-live': 'polite' });

  const compute = async () => {
    clear(out);
    const v: Record<string, number | undefined> = {};
    for (const fd of FIELDS) {
      const text = inputs.get(fd.id)!.value.trim();
      const n = Number(text);
      if (fd.optional && text === '') continue;
      if (text === '' || !(Number.isFinite(n) && n >= fd.min && n <= fd.max)) {
        out.append(alert('danger', `${fd.label}: must be a number from ${fd.min} to ${fd.max}.`, 'plan-error'));
        return;
      }
      v[fd.id] = n;
    }
    try {
      const plan = await ctx.api.capacityPlan(c.id, {
        workload: { oio: v.oio!, ioSizeKB: v.size!, readPct: v.read!, randomPct: v.random! },
        count: v.count!,
        sizeGB: v.disk,
      });
      out.append(planView(plan));
    } catch (e) {
      out.append(errorBox('Capacity plan', e));
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void compute();
  });
  form.append(h('div', { class: 'clr-form-control' }, button('Compute', () => void compute(), { kind: 'primary', testId: 'plan-compute' })));
  queueMicrotask(() => void compute());

  return h('div', { 'data-testid': 'page-planner' },
    pageHeader(`Capacity planner — ${c.name}`, 'What-if: how many workloads like this fit, per datastore, from its model and current load'),
    card('Workload', form),
    card('Per datastore: Q_max (Pesto Eq. 12), Q_α (Eq. 13) and space, as the server plans it', out));
}

function planView(p: CapacityPlanView): HTMLElement {
  const missing = p.count - p.fits;
  return h('div', null,
    h('div', { 'data-testid': 'plan-summary', 'data-fits': String(p.fits) },
      alert(p.allFit ? 'success' : 'warning',
        `${f.num(p.fits, 0)} of ${p.count} workloads fit in the cluster (${p.allFit ? 'enough room' : `${missing} do not fit`}), each with`
        + ` ${f.num(p.sizeGbEach, 1)} GB of disk, under the ${f.num(p.latencyThresholdMs, 1)} ms latency threshold and α = ${p.alpha}.`)),
    table<DatastoreCapacityView>('Capacity per datastore', [
      { header: 'Datastore', cell: (r) => r.datastore },
      { header: 'Model', cell: (r) => f.modelName(r.model) },
      { header: `Q_max at ${f.num(p.latencyThresholdMs, 1)} ms`, numeric: true, cell: (r) => f.num(r.qMax, 1) },
      { header: `Q_α (α = ${p.alpha})`, numeric: true, cell: (r) => f.num(r.qAlpha, 1) },
      { header: 'Current OIO', numeric: true, cell: (r) => f.num(r.currentOutstandingIos, 1) },
      { header: 'By latency', numeric: true, cell: (r) => f.num(r.byLatency, 0) },
      { header: 'By throughput', numeric: true, cell: (r) => f.num(r.byThroughput, 0) },
      { header: 'By space', numeric: true, cell: (r) => (r.bySpace == null ? 'no limit' : f.num(r.bySpace, 0)) },
      { header: 'Workloads that fit', numeric: true, cell: (r) => h('span', { 'data-testid': `plan-fits-${r.datastoreId}` }, f.num(r.fits, 0)) },
    ], p.datastores, 'no datastores.', 'plan-table'));
}
