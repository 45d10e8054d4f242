import { h, clear } from '../dom';
import type { SettingsView } from '../api';
import { alert, button, errorBox, pageHeader } from '../ui';
import type { PageContext } from './context';

type Kind = 'number' | 'bool' | 'select';
interface FieldDef {
  key: keyof SettingsView;
  label: string;
  kind: Kind;
  min?: number;
  max?: number;
  step?: number;
  options?: string[];
  /** Also the datastore cluster's Storage DRS setting in vCenter (the server writes it there first). */
  vcenter?: boolean;
}

export const SETTINGS_FIELDS: FieldDef[] = [
  { key: 'storageDrsEnabled', label: 'Storage DRS on (off: no balancing run, no recommendations, no placement)', kind: 'bool', vcenter: true },
  { key: 'automationLevel', label: 'Automation level', kind: 'select', options: ['manual', 'automated'], vcenter: true },
  { key: 'spaceAutomationLevel', label: 'Space balancing automation', kind: 'select', options: ['inherit', 'manual', 'automated'], vcenter: true },
  { key: 'ioAutomationLevel', label: 'I/O balancing automation', kind: 'select', options: ['inherit', 'manual', 'automated'], vcenter: true },
  { key: 'ruleAutomationLevel', label: 'Rule enforcement automation', kind: 'select', options: ['inherit', 'manual', 'automated'], vcenter: true },
  { key: 'evacuationAutomationLevel', label: 'VM evacuation automation (maintenance mode)', kind: 'select', options: ['inherit', 'manual', 'automated'], vcenter: true },
  { key: 'modelKind', label: 'Model', kind: 'select', options: ['auto', 'pesto', 'basil', 'romano', 'queueing'] },
  { key: 'strategy', label: 'Balancing strategy', kind: 'select', options: ['auto', 'per-io', 'basil', 'pesto', 'romano', 'latency-greedy', 'space-only'] },
  { key: 'spaceThresholdMode', label: 'Space threshold mode', kind: 'select', options: ['utilization', 'freeSpace'], vcenter: true },
  { key: 'spaceThresholdPct', label: 'Space threshold (%)', kind: 'number', min: 50, max: 100, step: 1, vcenter: true },
  { key: 'freeSpaceThresholdGb', label: 'Free space threshold (GB)', kind: 'number', min: 1, max: 1000000, step: 1, vcenter: true },
  { key: 'minSpaceDifferencePct', label: 'Minimum space utilization difference (%)', kind: 'number', min: 1, max: 50, step: 1, vcenter: true },
  { key: 'ioLoadBalanceEnabled', label: 'I/O load balancing', kind: 'bool', vcenter: true },
  { key: 'latencyThresholdMs', label: 'I/O latency threshold (ms)', kind: 'number', min: 5, max: 100, step: 1, vcenter: true },
  { key: 'ioImbalanceThreshold', label: 'I/O imbalance threshold', kind: 'number', min: 1, max: 100, step: 1, vcenter: true },
  { key: 'loadBalanceIntervalMinutes', label: 'Load balance interval (minutes)', kind: 'number', min: 60, max: 43200, step: 1 },
  { key: 'keepVmdksTogether', label: 'Keep VMDKs together by default', kind: 'bool', vcenter: true },
  { key: 'ignoreAffinityForMaintenance', label: 'Ignore affinity rules for maintenance', kind: 'bool', vcenter: true },
  { key: 'congestionAlpha', label: 'Congestion threshold α (fraction of peak)', kind: 'number', min: 0.01, max: 0.99, step: 0.01 },
];

/** Reads the form into a settings object; returns the first out-of-range field's message instead. */
export function readSettings(values: Record<string, string | boolean>, base: SettingsView): SettingsView | string {
  const out: Record<string, unknown> = { ...base };
  for (const fd of SETTINGS_FIELDS) {
    const v = values[fd.key];
    if (fd.kind === 'bool') out[fd.key] = Boolean(v);
    else if (fd.kind === 'select') out[fd.key] = String(v);
    else {
      const n = Number(v);
      if (!Number.isFinite(n) || (fd.min !== undefined && n < fd.min) || (fd.max !== undefined && n > fd.max)) {
        return `${fd.label}: must be from ${fd.min} to ${fd.max}`;
      }
      out[fd.key] = fd.step !== undefined && fd.step >= 1 ? Math.round(n) : n;
    }
  }
  return out as unknown as SettingsView;
}

export async function settingsPage(ctx: PageContext, inModal = false): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Settings'), alert('info', 'No datastore cluster.'));
  const s = await ctx.api.settings(c.id);
  const status = h('div', { 'aria-live': 'polite', 'data-testid': 'settings-status' });
  const controls = new Map<string, HTMLInputElement | HTMLSelectElement>();
  const form = h('form', { class: 'clr-form clr-form-horizontal', 'aria-label': `Storage DRS settings of ${c.name}`, novalidate: true },
    SETTINGS_FIELDS.map((fd) => {
      const id = `set-${fd.key}`;
      let ctl: HTMLInputElement | HTMLSelectElement;
      if (fd.kind === 'select') {
        const opts = [...new Set([...(fd.options ?? []), String(s[fd.key])])];
        ctl = h('select', { id, class: 'clr-select' }, opts.map((o) => h('option', { value: o, selected: String(s[fd.key]) === o }, o)));
      } else if (fd.kind === 'bool') {
        ctl = h('input', { id, type: 'checkbox', class: 'clr-checkbox', checked: Boolean(s[fd.key]) });
      } else {
        ctl = h('input', { id, type: 'number', class: 'clr-input', value: String(s[fd.key]), min: fd.min, max: fd.max, step: fd.step });
      }
      controls.set(fd.key, ctl);
      return h('div', { class: 'clr-form-control' },
        h('label', { for: id, class: 'clr-control-label' }, fd.label,
          fd.vcenter ? h('span', { class: 'label label-info', title: "Also this datastore cluster's Storage DRS setting in vCenter" }, 'vCenter') : null),
        h('div', { class: 'clr-control-container' }, fd.kind === 'select' ? h('div', { class: 'clr-select-wrapper' }, ctl) : ctl));
    }));

  const save = async () => {
    clear(status);
    const values: Record<string, string | boolean> = {};
    controls.forEach((el, k) => (values[k] = el instanceof HTMLInputElement && el.type === 'checkbox' ? el.checked : el.value));
    const next = readSettings(values, s);
    if (typeof next === 'string') {
      status.append(alert('danger', next, 'settings-error'));
      return;
    }
    try {
      await ctx.api.putSettings(c.id, next);
      status.append(alert('success', 'Settings saved.', 'settings-saved'));
      if (inModal) setTimeout(() => ctx.host.closeModal(true), 600);
    } catch (e) {
      status.append(errorBox('Save settings', e));
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void save();
  });
  return h('div', { 'data-testid': 'page-settings' },
    inModal ? null : pageHeader(`Storage DRS settings — ${c.name}`),
    h('p', { 'data-testid': 'settings-vcenter-note' }, 'Settings marked vCenter are the datastore cluster\'s Storage DRS settings in vCenter: ',
      'saving writes them there first, and a change made in the vSphere Client shows here after the next inventory sync. ',
      'The load balance interval is this product\'s own (16 hours by default).'),
    form, status,
    h('div', { class: 'modal-footer-row' },
      inModal ? button('Cancel', () => ctx.host.closeModal(), { testId: 'settings-cancel' }) : null,
      button('Save', () => void save(), { kind: 'primary', testId: 'settings-save' })));
}
