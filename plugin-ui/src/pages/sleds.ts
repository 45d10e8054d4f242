import { h, clear } from '../dom';
import { NotAvailableError, readableAction, withServiceClass, withVmServiceClass, withoutServiceClass } from '../api';
import type { ServiceClassEntry, SettingsView, SledsStreamView, SledsView } from '../api';
import * as f from '../format';
import { alert, badge, button, card, errorBox, notAvailable, pageHeader, table } from '../ui';
import type { PageContext } from './context';
import { clusterVms } from './rules';

/** How often the page reads the controller's step again while it is shown (the controller steps every second). */
export const SLEDS_REFRESH_MS = 2000;
const MIB = 1024 * 1024;
/** The server's id pattern for a class (ApiIds.MOID). */
const CLASS_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

interface ClassField {
  id: 'id' | 'delivery' | 'iops' | 'mibps' | 'miss';
  label: string;
  min?: number;
  max?: number;
  step?: number;
}

const CLASS_FIELDS: ClassField[] = [
  { id: 'id', label: 'Class name' },
  { id: 'delivery', label: 'Delivery bound: mean response time (ms)', min: 0.1, max: 10000, step: 0.1 },
  { id: 'iops', label: 'Demand bound, its streams together (IOPS)', min: 0.001, max: 1e9, step: 1 },
  { id: 'mibps', label: 'Demand bound, its streams together (MiB/s)', min: 0.001, max: 1e6, step: 0.1 },
  { id: 'miss', label: 'Delivery bound may be missed in at most (% of windows)', min: 0, max: 100, step: 0.1 },
];

/** Reads the class form; answers the first bad field's message instead. */
export function readServiceClass(values: Record<ClassField['id'], string>): ServiceClassEntry | string {
  const id = values.id.trim();
  if (!CLASS_ID.test(id)) return 'Class name: letters, digits, _ . : - only, 1 to 64 of them';
  const n: Record<string, number> = {};
  for (const fd of CLASS_FIELDS.slice(1)) {
    const v = Number(values[fd.id]);
    if (values[fd.id].trim() === '' || !Number.isFinite(v) || v < fd.min! || v > fd.max!) return `${fd.label}: must be a number from ${fd.min} to ${fd.max}`;
    n[fd.id] = v;
  }
  return { id, deliveryBoundMs: n.delivery, demandBoundIops: n.iops, demandBoundBytesPerSecond: n.mibps * MIB, allowedMissPct: n.miss };
}

/**
 * SLEDS service levels (SPEC §3.5): the cluster's service classes with their SLOs and whether
 * each meets it, the VMs in each class, every classified stream with what it measured and the
 * limit the controller holds it to, and what the controller's last step did. Classes and the VMs
 * in them are the cluster's settings (PUT /clusters/{id}/settings); the measured part is read
 * again every {@link SLEDS_REFRESH_MS} while the page is shown.
 */
export async function sledsPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Service levels'), alert('info', 'No datastore cluster.'));
  const [first, loaded, disks, datastores] = await Promise.all([
    ctx.api.sleds(c.id).catch((e) => e as Error),
    ctx.api.settings(c.id),
    ctx.api.disks(undefined, 10000).catch((e) => e as Error),
    ctx.api.datastores(c.id).catch((e) => e as Error),
  ]);
  const header = pageHeader(`Service levels — ${c.name}`,
    'SLEDS: each service class promises its streams a mean response time while their demand, all together, stays within its demand bounds; every second the controller throttles the competing streams that can best afford it');
  if (first instanceof NotAvailableError) return h('div', { 'data-testid': 'page-sleds' }, header, notAvailable('Service levels (SLEDS)', first));
  let settings: SettingsView = loaded;
  let view: SledsView | Error = first;
  const vms = disks instanceof Error || datastores instanceof Error ? [] : clusterVms(disks, new Set(datastores.map((d) => d.name)));
  const vmName = (id: string) => vms.find(([v]) => v === id)?.[1] ?? id;

  const status = h('div', { 'aria-live': 'polite', 'data-testid': 'sleds-status' });
  const classesLive = h('div', { 'data-testid': 'sleds-classes' });
  const streamsLive = h('div', { 'data-testid': 'sleds-streams' });
  const stepLive = h('div', { 'data-testid': 'sleds-step' });
  const members = h('div', { 'data-testid': 'sleds-members' });
  const classSelect = h('select', { id: 'sleds-member-class', class: 'clr-select', 'data-testid': 'sleds-member-class' }) as HTMLSelectElement;

  /** What the controller measured: redrawn on every poll. */
  const showMeasured = () => {
    clear(classesLive);
    classesLive.append(classesTable(settings.serviceClasses ?? [], view, (id) => void remove(id)));
    clear(streamsLive);
    clear(stepLive);
    if (view instanceof Error) {
      streamsLive.append(errorBox('SLEDS controller', view));
    } else {
      streamsLive.append(streamsTable(view.streams));
      stepLive.append(stepSummary(view));
    }
  };
  /** What the settings hold: redrawn only when they change, so a poll never closes the class list under the pointer. */
  const showSettings = () => {
    const chosen = classSelect.value;
    clear(classSelect);
    classSelect.append(h('option', { value: '' }, 'none — not throttled, no SLO'),
      ...(settings.serviceClasses ?? []).map((k) => h('option', { value: k.id }, k.id)));
    if ([...classSelect.options].some((o) => o.value === chosen)) classSelect.value = chosen;
    clear(members);
    const inClass = (settings.vmOverrides ?? []).filter((o) => o.serviceClass != null);
    members.append(table('VMs in a service class', [
      { header: 'VM', cell: (o) => vmName(o.vmId) },
      { header: 'Service class', cell: (o) => o.serviceClass ?? '' },
    ], inClass, 'none — no VM is in a class, so SLEDS throttles nothing.', 'sleds-members-table'));
    showMeasured();
  };

  /** Writes what {@code change} makes of the settings as the server holds them now, then shows them. */
  const save = async (what: string, change: (s: SettingsView) => Partial<SettingsView>, done: string) => {
    clear(status);
    try {
      const fresh = await ctx.api.settings(c.id);
      settings = await ctx.api.putSettings(c.id, { ...fresh, ...change(fresh) });
      status.append(alert('success', done, 'sleds-saved'));
    } catch (e) {
      status.append(errorBox(what, e));
    }
    view = await ctx.api.sleds(c.id).catch((e) => e as Error);
    showSettings();
  };
  const remove = (id: string) => save(`Remove class ${id}`, (s) => withoutServiceClass(s, id),
    `Class ${id} removed; its VMs are in no class now and their streams are no longer throttled.`);

  // the measured part again every SLEDS_REFRESH_MS while the page is shown; left, it reads nothing more
  let shown = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    const next = await ctx.api.sleds(c.id).catch((e) => e as Error);
    if (!shown) return;
    view = next;
    showMeasured();
    timer = setTimeout(() => void poll(), SLEDS_REFRESH_MS);
  };
  ctx.onLeave(() => {
    shown = false;
    clearTimeout(timer);
  });
  timer = setTimeout(() => void poll(), SLEDS_REFRESH_MS);

  const inputs = new Map<ClassField['id'], HTMLInputElement>();
  const classForm = h('form', { class: 'clr-form clr-form-horizontal', 'aria-label': 'Add or change a service class', novalidate: true },
    h('h3', null, 'Add a class, or change one by its name'),
    CLASS_FIELDS.map((fd) => {
      const input = fd.id === 'id'
        ? h('input', { id: `sleds-class-${fd.id}`, type: 'text', class: 'clr-input', maxlength: 64, 'data-testid': `sleds-class-${fd.id}` })
        : h('input', { id: `sleds-class-${fd.id}`, type: 'number', class: 'clr-input', min: fd.min, max: fd.max, step: fd.step, 'data-testid': `sleds-class-${fd.id}`,
          value: fd.id === 'miss' ? 5 : undefined });
      inputs.set(fd.id, input);
      return h('div', { class: 'clr-form-control' },
        h('label', { for: `sleds-class-${fd.id}`, class: 'clr-control-label' }, fd.label),
        h('div', { class: 'clr-control-container' }, h('div', { class: 'clr-input-wrapper' }, input)));
    }),
    button('Save class', () => void saveClass(), { kind: 'primary', testId: 'sleds-class-save' }));
  const saveClass = async () => {
    const entry = readServiceClass(Object.fromEntries([...inputs].map(([k, el]) => [k, el.value])) as Record<ClassField['id'], string>);
    if (typeof entry === 'string') {
      clear(status);
      status.append(alert('danger', entry, 'sleds-error'));
      return;
    }
    await save(`Class ${entry.id}`, (s) => ({ serviceClasses: withServiceClass(s.serviceClasses ?? [], entry) }),
      `Class ${entry.id}: ${f.ms(entry.deliveryBoundMs)} while its streams together stay under ${f.iops(entry.demandBoundIops)} and ${f.bytes(entry.demandBoundBytesPerSecond)}/s.`);
  };
  classForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void saveClass();
  });

  const vmSelect = h('select', { id: 'sleds-member-vm', class: 'clr-select', 'data-testid': 'sleds-member-vm' },
    vms.map(([id, name]) => h('option', { value: id }, name))) as HTMLSelectElement;
  const saveMember = async () => {
    if (!vmSelect.value) {
      clear(status);
      status.append(alert('danger', 'VM: the cluster has no VM.', 'sleds-error'));
      return;
    }
    const vm = vmSelect.value;
    const cls = classSelect.value || null;
    await save(`${vmName(vm)}'s service class`, (s) => ({ vmOverrides: withVmServiceClass(s.vmOverrides ?? [], vm, cls) }),
      cls ? `${vmName(vm)}: in class ${cls}; each of its disks is a stream the controller watches.` : `${vmName(vm)}: in no class.`);
  };
  const memberForm = h('form', { class: 'clr-form', 'aria-label': "A VM's service class", novalidate: true },
    h('h3', null, 'Put a VM in a class'),
    h('div', { class: 'clr-form-control' },
      h('label', { for: 'sleds-member-vm', class: 'clr-control-label' }, 'VM'),
      h('div', { class: 'clr-control-container' }, h('div', { class: 'clr-select-wrapper' }, vmSelect))),
    h('div', { class: 'clr-form-control' },
      h('label', { for: 'sleds-member-class', class: 'clr-control-label' }, 'Service class'),
      h('div', { class: 'clr-control-container' }, h('div', { class: 'clr-select-wrapper' }, classSelect))),
    button('Set', () => void saveMember(), { kind: 'primary', testId: 'sleds-member-set' }));
  memberForm.addEventListener('submit', (e) => {
    e.preventDefault();
    void saveMember();
  });

  showSettings();
  return h('div', { 'data-testid': 'page-sleds' },
    header,
    status,
    card('Service classes and their SLOs', classesLive, classForm),
    card('VMs in a class', disks instanceof Error || datastores instanceof Error
      ? errorBox('VMs of the cluster', disks instanceof Error ? disks : datastores) : memberForm, members),
    card('Streams: each classified VM disk, as the controller measured it', streamsLive),
    card("The controller's last step", stepLive));
}

function classesTable(classes: ServiceClassEntry[], view: SledsView | Error, remove: (id: string) => void): HTMLElement {
  const measured = view instanceof Error ? [] : view.classes;
  return table<ServiceClassEntry>('Service classes', [
    { header: 'Class', cell: (k) => k.id },
    { header: 'Delivery bound', numeric: true, cell: (k) => f.ms(k.deliveryBoundMs) },
    { header: 'Demand bound (its streams together)', numeric: true, cell: (k) => `${f.iops(k.demandBoundIops)}, ${f.bytes(k.demandBoundBytesPerSecond)}/s` },
    { header: 'Mean response time (IOPS-weighted)', numeric: true, cell: (k) => f.ms(measured.find((m) => m.id === k.id)?.latencyMs) },
    { header: 'Last window', cell: (k) => {
      const m = measured.find((x) => x.id === k.id);
      return m?.meetsSlo == null ? badge('no stream measured', 'neutral') : m.meetsSlo ? badge('met', 'success') : badge('missed', 'danger');
    } },
    { header: 'Over its last windows', cell: (k) => {
      const m = measured.find((x) => x.id === k.id);
      const allowed = `${f.num(k.allowedMissPct ?? 5, 1)} % allowed`;
      if (!m || m.compliant == null) return h('span', { class: 'muted' }, `no window yet (${allowed})`);
      return [badge(m.compliant ? 'SLO kept' : 'SLO broken', m.compliant ? 'success' : 'danger'), ' ',
        `${m.missedWindows} of ${m.windows} missed (${f.pct(m.windows ? (100 * m.missedWindows) / m.windows : 0)}; ${allowed})`];
    } },
    { header: 'Streams', numeric: true, cell: (k) => measured.find((m) => m.id === k.id)?.streams ?? 0 },
    { header: 'Actions', cell: (k) => button('Remove', () => remove(k.id), { kind: 'danger-outline', small: true, ariaLabel: `Remove service class ${k.id}`, testId: `sleds-remove-${k.id}` }) },
  ], classes, 'none — add one below, then put VMs in it.', 'sleds-classes-table');
}

function streamsTable(streams: SledsStreamView[]): HTMLElement {
  return table<SledsStreamView>('Streams', [
    { header: 'VM / disk', cell: (s) => f.diskLabel(s.vmId, s.diskKey, s.vmName) },
    { header: 'Host', cell: (s) => s.host },
    { header: 'Datastore', cell: (s) => s.datastoreName },
    { header: 'Class', cell: (s) => s.classId },
    { header: 'Measured (newest sample)', numeric: true, cell: (s) => `${f.iops(s.iops)}, ${f.bytes(s.bytesPerSecond)}/s, ${f.ms(s.latencyMs)} over ${s.windowSeconds} s` },
    { header: 'Limit (reads and writes together)', numeric: true, cell: (s) => (s.iopsLimit == null && s.bytesPerSecondLimit == null
      ? h('span', { class: 'muted' }, 'unthrottled')
      : badge(`${s.iopsLimit == null ? 'any IOPS' : f.iops(s.iopsLimit)}, ${s.bytesPerSecondLimit == null ? 'any rate' : `${f.bytes(s.bytesPerSecondLimit)}/s`}`, 'warning')) },
  ], streams, 'none measured — no VM of the cluster is in a class, or its disks have no statistics yet.', 'sleds-streams-table');
}

function stepSummary(view: SledsView): HTMLElement {
  if (!view.at) return h('p', { class: 'muted' }, 'The controller has not stepped on this cluster yet.');
  return h('div', null,
    h('p', null, view.actions.length ? `At ${f.instant(view.at)}, it:` : `At ${f.instant(view.at)}: nothing to do — every class meets its SLO, or no stream competes with one that misses it and no limit is left to relax.`),
    view.actions.length ? h('ul', { 'data-testid': 'sleds-actions' }, view.actions.map((a) => h('li', null, readableAction(a, view.streams)))) : null);
}
