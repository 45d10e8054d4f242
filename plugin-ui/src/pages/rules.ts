import { h } from '../dom';
import { withVmAutomation } from '../api';
import type { DiskView, RuleView, VmOverrideView } from '../api';
import { alert, button, card, dl, errorBox, pageHeader, table } from '../ui';
import type { PageContext } from './context';

/** The cluster's VMs ([id, name], by name): those with a disk on one of its datastores (by name, as DiskView has it). */
export function clusterVms(disks: DiskView[], datastoreNames: Set<string>): Array<[string, string]> {
  const vms = new Map<string, string>();
  for (const d of disks) {
    if (d.datastore != null && datastoreNames.has(d.datastore)) vms.set(d.vm, d.vmName || d.vm);
  }
  return [...vms.entries()].sort((a, b) => a[1].localeCompare(b[1]));
}

/** The cluster's VMs with two or more disks on its datastores, each with those disks ([key, file]), by VM name. */
export function multiDiskVms(disks: DiskView[], datastoreNames: Set<string>): Array<{ id: string; name: string; disks: Array<[number, string]> }> {
  const vms = new Map<string, { id: string; name: string; disks: Array<[number, string]> }>();
  for (const d of disks) {
    if (d.datastore == null || !datastoreNames.has(d.datastore)) continue;
    const vm = vms.get(d.vm) ?? { id: d.vm, name: d.vmName || d.vm, disks: [] };
    vm.disks.push([d.diskKey, d.file]);
    vms.set(d.vm, vm);
  }
  return [...vms.values()].filter((v) => v.disks.length >= 2).sort((a, b) => a.name.localeCompare(b.name));
}

export async function rulesPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Rules'), alert('info', 'No datastore cluster.'));
  const [rules, overrides, disks, datastores] = await Promise.all([
    ctx.api.rules(c.id).catch((e) => e as Error),
    ctx.api.vmOverrides(c.id).catch((e) => e as Error),
    ctx.api.disks(undefined, 10000).catch((e) => e as Error),
    ctx.api.datastores(c.id).catch((e) => e as Error),
  ]);
  const status = h('div', { 'aria-live': 'polite', 'data-testid': 'rules-status' });

  const remove = async (r: RuleView) => {
    status.replaceChildren();
    try {
      await ctx.api.deleteRule(c.id, String(r.id));
      ctx.refresh();
    } catch (e) {
      status.append(errorBox(`Remove rule ${r.name}`, e));
    }
  };

  return h('div', { 'data-testid': 'page-rules' },
    pageHeader(`Rules and VM overrides — ${c.name}`, 'Affinity rules and per-VM automation (SPEC §4)'),
    card('Cluster defaults', dl([
      ['Keep VMDKs together (intra-VM affinity)', c.settings.keepVmdksTogether ? 'yes — the unit of migration is the whole VM' : 'no'],
      ['Automation level', c.settings.automationLevel],
    ])),
    card('Affinity and anti-affinity rules', rules instanceof Error ? errorBox('Rules', rules)
      : table<RuleView>('Rules', [
        { header: 'Name', cell: (r) => r.name },
        { header: 'Type', cell: (r) => r.kind },
        { header: 'Enabled', cell: (r) => (r.enabled ? 'yes' : 'no') },
        { header: 'Members', cell: (r) => r.members.join(', ') },
        {
          header: 'Actions',
          // removing a VM's own keep-together lets it follow the cluster's default again
          // (not while a VMDK anti-affinity rule of the VM keeps its disks apart)
          cell: (r) => (r.kind === 'intraVmAffinity'
            ? (rules as RuleView[]).some((x) => x.id === `vmdkAntiAffinity:${String(r.id).slice('intraVmAffinity:'.length)}`) ? ''
              : button('Use cluster default', () => void remove(r), { kind: 'outline', small: true, ariaLabel: `${r.name}: use the cluster default`,
              testId: `default-keep-together-${r.members[0]}` })
            : button('Remove', () => void remove(r), { kind: 'danger-outline', small: true, ariaLabel: `Remove rule ${r.name}`, testId: `remove-rule-${r.name}` })),
        },
      ], rules as RuleView[], 'no rules.', 'rules-table'),
    disks instanceof Error || datastores instanceof Error
      ? errorBox('VMs of the cluster', disks instanceof Error ? disks : datastores)
      : [newRuleForm(ctx, c.id, clusterVms(disks, new Set(datastores.map((d) => d.name))), status),
        newVmdkRuleForm(ctx, c.id, multiDiskVms(disks, new Set(datastores.map((d) => d.name))), status),
        keepTogetherForm(ctx, c.id, clusterVms(disks, new Set(datastores.map((d) => d.name))), status)],
    status),
    card('Per-VM overrides', overrides instanceof Error ? errorBox('VM overrides', overrides)
      : table<VmOverrideView>('VM overrides', [
        { header: 'VM', cell: (o) => o.vmName ?? o.vm },
        { header: 'Automation (vCenter)', cell: (o) => AUTOMATION_LABELS[o.automationLevel] ?? o.automationLevel },
        { header: 'Service class', cell: (o) => o.serviceClass ?? '' },
        { header: 'Keep VMDKs together', cell: (o) => (o.keepVmdksTogether == null ? 'cluster default' : o.keepVmdksTogether ? 'yes' : 'no') },
      ], overrides as VmOverrideView[], 'no overrides.', 'overrides-table'),
    disks instanceof Error || datastores instanceof Error ? ''
      : automationForm(ctx, c.id, clusterVms(disks, new Set(datastores.map((d) => d.name))), status)));
}

/** The levels of a VM's Storage DRS automation, as the vSphere Client's "VM Overrides" name them. */
const AUTOMATION_LABELS: Record<string, string> = {
  default: 'default (the cluster\'s)',
  manual: 'manual',
  automated: 'fully automated',
  excluded: 'disabled (never moved)',
};

/** "Add VM anti-affinity rule": a name and at least two of the cluster's VMs; vCenter holds the rule. */
function newRuleForm(ctx: PageContext, clusterId: string, vms: Array<[string, string]>, status: HTMLElement): HTMLElement {
  const name = h('input', { id: 'rule-name', type: 'text', class: 'clr-input', maxlength: 80, 'data-testid': 'rule-name' }) as HTMLInputElement;
  const boxes = vms.map(([id, vmName]) =>
    h('input', { id: `rule-vm-${id}`, type: 'checkbox', class: 'clr-checkbox', value: id, 'data-testid': `rule-vm-${vmName}` }) as HTMLInputElement);
  const submit = async () => {
    status.replaceChildren();
    const vmIds = boxes.filter((b) => b.checked).map((b) => b.value);
    if (!name.value.trim()) {
      status.append(alert('danger', 'Name: give the rule a name.', 'rule-error'));
      return;
    }
    if (vmIds.length < 2) {
      status.append(alert('danger', 'VMs: an anti-affinity rule needs at least two VMs.', 'rule-error'));
      return;
    }
    try {
      const created = await ctx.api.createRule(clusterId, { kind: 'vmAntiAffinity', name: name.value.trim(), vmIds });
      status.append(alert('success', `Rule ${created.name} created in vCenter.`, 'rule-created'));
      ctx.refresh();
    } catch (e) {
      status.append(errorBox('Create rule', e));
    }
  };
  const form = h('form', { class: 'clr-form', 'aria-label': 'New VM anti-affinity rule', novalidate: true },
    h('h4', null, 'New VM anti-affinity rule — the VMs are kept on different datastores'),
    h('div', { class: 'clr-form-control' },
      h('label', { for: 'rule-name', class: 'clr-control-label' }, 'Name'),
      h('div', { class: 'clr-control-container' }, name)),
    h('fieldset', { class: 'clr-form-control' },
      h('legend', { class: 'clr-control-label' }, 'VMs'),
      vms.length ? boxes.map((box, i) => h('div', { class: 'clr-checkbox-wrapper' }, box,
        h('label', { for: box.id, class: 'clr-control-label' }, vms[i][1]))) : h('p', null, 'The cluster has no VM.')),
    button('Create rule', () => void submit(), { kind: 'primary', testId: 'rule-create' }));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit();
  });
  return form;
}

/** "Add VMDK anti-affinity rule": a VM with two or more disks in the cluster, and the disks to keep on different datastores. */
function newVmdkRuleForm(ctx: PageContext, clusterId: string, vms: ReturnType<typeof multiDiskVms>, status: HTMLElement): HTMLElement {
  const name = h('input', { id: 'vmdk-rule-name', type: 'text', class: 'clr-input', maxlength: 80, 'data-testid': 'vmdk-rule-name' }) as HTMLInputElement;
  const vmSelect = h('select', { id: 'vmdk-rule-vm', class: 'clr-select', 'data-testid': 'vmdk-rule-vm' },
    vms.map((v) => h('option', { value: v.id }, v.name))) as HTMLSelectElement;
  const diskBoxes = h('div', { 'data-testid': 'vmdk-rule-disks' });
  const showDisks = () => {
    const vm = vms.find((v) => v.id === vmSelect.value);
    diskBoxes.replaceChildren(...(vm?.disks ?? []).map(([key, file]) => h('div', { class: 'clr-checkbox-wrapper' },
      h('input', { id: `vmdk-rule-disk-${key}`, type: 'checkbox', class: 'clr-checkbox', value: String(key), 'data-testid': `vmdk-rule-disk-${key}` }),
      h('label', { for: `vmdk-rule-disk-${key}`, class: 'clr-control-label' }, file))));
    if (vm && !name.value.trim()) name.placeholder = `${vm.name}-vmdk-anti-affinity`;
  };
  vmSelect.addEventListener('change', showDisks);
  showDisks();
  const submit = async () => {
    status.replaceChildren();
    const vm = vms.find((v) => v.id === vmSelect.value);
    const diskKeys = [...diskBoxes.querySelectorAll<HTMLInputElement>('input:checked')].map((b) => Number(b.value));
    const ruleName = name.value.trim() || name.placeholder;
    if (!vm) {
      status.append(alert('danger', 'VM: the cluster has no VM with two disks on its datastores.', 'rule-error'));
      return;
    }
    if (diskKeys.length < 2) {
      status.append(alert('danger', 'Disks: a VMDK anti-affinity rule needs at least two of the VM\'s disks.', 'rule-error'));
      return;
    }
    try {
      const created = await ctx.api.createRule(clusterId, { kind: 'vmdkAntiAffinity', name: ruleName, vmId: vm.id, diskKeys });
      status.append(alert('success', `Rule ${created.name} created in vCenter.`, 'rule-created'));
      ctx.refresh();
    } catch (e) {
      status.append(errorBox('Create rule', e));
    }
  };
  const form = h('form', { class: 'clr-form', 'aria-label': 'New VMDK anti-affinity rule', novalidate: true },
    h('h4', null, 'New VMDK anti-affinity rule — the VM\'s chosen disks are kept on different datastores'),
    h('div', { class: 'clr-form-control' },
      h('label', { for: 'vmdk-rule-vm', class: 'clr-control-label' }, 'VM'),
      h('div', { class: 'clr-control-container' }, h('div', { class: 'clr-select-wrapper' }, vmSelect))),
    h('div', { class: 'clr-form-control' },
      h('label', { for: 'vmdk-rule-name', class: 'clr-control-label' }, 'Name'),
      h('div', { class: 'clr-control-container' }, name)),
    h('fieldset', { class: 'clr-form-control' }, h('legend', { class: 'clr-control-label' }, 'Disks'),
      vms.length ? diskBoxes : h('p', null, 'The cluster has no VM with two disks on its datastores.')),
    button('Create VMDK rule', () => void submit(), { kind: 'primary', testId: 'vmdk-rule-create' }));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit();
  });
  return form;
}

/**
 * A form that sets one of a VM's own Storage DRS settings in vCenter: the VM, a value, "Set".
 * {@code id} prefixes the controls' ids and test ids ({@code id}-vm, {@code id}-value, {@code id}-set);
 * {@code set} makes the change and returns the success message.
 */
function vmSettingForm(ctx: PageContext, vms: Array<[string, string]>, status: HTMLElement, opts: {
  id: string; title: string; ariaLabel: string; valueLabel: string; options: Array<[string, string]>; what: string;
  set: (vmId: string, value: string) => Promise<string>;
}): HTMLElement {
  const vmSelect = h('select', { id: `${opts.id}-vm`, class: 'clr-select', 'data-testid': `${opts.id}-vm` },
    vms.map(([id, name]) => h('option', { value: id }, name))) as HTMLSelectElement;
  const value = h('select', { id: `${opts.id}-value`, class: 'clr-select', 'data-testid': `${opts.id}-value` },
    opts.options.map(([v, label]) => h('option', { value: v }, label))) as HTMLSelectElement;
  const submit = async () => {
    status.replaceChildren();
    if (!vmSelect.value) {
      status.append(alert('danger', 'VM: the cluster has no VM.', 'rule-error'));
      return;
    }
    try {
      status.append(alert('success', await opts.set(vmSelect.value, value.value), 'rule-created'));
      ctx.refresh();
    } catch (e) {
      status.append(errorBox(opts.what, e));
    }
  };
  const form = h('form', { class: 'clr-form', 'aria-label': opts.ariaLabel, novalidate: true },
    h('h4', null, opts.title),
    h('div', { class: 'clr-form-control' },
      h('label', { for: `${opts.id}-vm`, class: 'clr-control-label' }, 'VM'),
      h('div', { class: 'clr-control-container' }, h('div', { class: 'clr-select-wrapper' }, vmSelect))),
    h('div', { class: 'clr-form-control' },
      h('label', { for: `${opts.id}-value`, class: 'clr-control-label' }, opts.valueLabel),
      h('div', { class: 'clr-control-container' }, h('div', { class: 'clr-select-wrapper' }, value))),
    button('Set', () => void submit(), { kind: 'primary', testId: `${opts.id}-set` }));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit();
  });
  return form;
}

/** A VM's own "Keep VMDKs together", which replaces the cluster's default for it (vCenter's VM override). */
function keepTogetherForm(ctx: PageContext, clusterId: string, vms: Array<[string, string]>, status: HTMLElement): HTMLElement {
  return vmSettingForm(ctx, vms, status, {
    id: 'keep', title: 'Keep VMDKs together for one VM — replaces the cluster default for it', ariaLabel: "A VM's own keep VMDKs together",
    valueLabel: 'Keep VMDKs together', what: 'Keep VMDKs together',
    options: [['true', 'yes — its disks move together'], ['false', 'no — its disks may move apart']],
    set: async (vmId, value) => {
      const set = await ctx.api.createRule(clusterId, { kind: 'intraVmAffinity', vmId, enabled: value === 'true' });
      return `${set.name}: ${set.enabled ? 'yes' : 'no'}, held by vCenter.`;
    },
  });
}

/** A VM's own automation: the settings' vmOverrides with the VM's level set; vCenter holds it in the VM's Storage DRS settings. */
function automationForm(ctx: PageContext, clusterId: string, vms: Array<[string, string]>, status: HTMLElement): HTMLElement {
  return vmSettingForm(ctx, vms, status, {
    id: 'automation', title: 'Automation for one VM — replaces the cluster level for it', ariaLabel: "A VM's own Storage DRS automation",
    valueLabel: 'Automation level', what: 'VM automation', options: Object.entries(AUTOMATION_LABELS),
    set: async (vmId, level) => {
      const settings = await ctx.api.settings(clusterId);
      await ctx.api.putSettings(clusterId, { ...settings, vmOverrides: withVmAutomation(settings.vmOverrides ?? [], vmId, level) });
      return `${vms.find(([id]) => id === vmId)?.[1] ?? vmId}: automation ${AUTOMATION_LABELS[level]}, held by vCenter.`;
    },
  });
}
