/** The content of the action modals (shown by the vSphere Client's modal.open, or in-page standalone). */
import { h, clear } from '../dom';
import { alert, button, errorBox } from '../ui';
import * as f from '../format';
import type { PageContext } from './context';
import { isPending } from './recommendations';
import { settingsPage } from './settings';

function modalShell(testId: string, body: HTMLElement, ...actions: HTMLElement[]): HTMLElement {
  return h('div', { class: 'modal-page', 'data-testid': testId }, body, h('div', { class: 'modal-footer-row' }, ...actions));
}

async function runAction(status: HTMLElement, what: string, fn: () => Promise<string>): Promise<boolean> {
  clear(status);
  status.append(h('span', null, `${what}…`));
  try {
    const msg = await fn();
    clear(status);
    status.append(alert('success', msg, 'modal-done'));
    return true;
  } catch (e) {
    clear(status);
    status.append(errorBox(what, e));
    return false;
  }
}

export async function runNowModal(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return alert('info', 'No datastore cluster.');
  const status = h('div', { 'aria-live': 'polite' });
  return modalShell('modal-run-now',
    h('div', null, h('p', null, `Run Storage DRS on ${c.name} now: it evaluates space and I/O load with the current models and makes recommendations${c.settings.automationLevel === 'automated' ? ' and applies them (automated)' : ' (manual: you apply them)'}.`), status),
    button('Cancel', () => ctx.host.closeModal(), { testId: 'modal-cancel' }),
    button('Run now', () => void runAction(status, 'Run Storage DRS', async () => {
      const r = await ctx.api.runNow(c.id);
      const applied = r.appliedRecommendationIds.length;
      return `Storage DRS ran (${r.strategy}): ${r.recommendationIds.length} recommendations`
        + (applied ? `, ${applied} applied` : '') + (r.faults.length ? `, ${r.faults.length} faults` : '') + '.';
    }), { kind: 'primary', testId: 'modal-confirm' }));
}

export async function applyAllModal(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return alert('info', 'No datastore cluster.');
  const pending = (await ctx.api.recommendations(c.id)).filter(isPending);
  const status = h('div', { 'aria-live': 'polite' });
  return modalShell('modal-apply',
    h('div', null, h('p', null, `Apply ${f.count(pending.length, 'pending recommendation')} of ${c.name}.`), status),
    button('Cancel', () => ctx.host.closeModal(), { testId: 'modal-cancel' }),
    button('Apply', () => void runAction(status, 'Apply recommendations', async () => {
      for (const r of pending) await ctx.api.applyRecommendation(r.id);
      return `${pending.length} recommendations applied.`;
    }), { kind: 'primary', testId: 'modal-confirm', disabled: pending.length === 0 }));
}

export async function maintenanceModal(ctx: PageContext): Promise<HTMLElement> {
  let ds = ctx.route.params.datastore;
  const hc = ctx.host.context();
  if (!ds && hc?.type === 'Datastore') ds = hc.name ?? (await ctx.api.datastores()).find((d) => d.id === hc.moid)?.name ?? '';
  if (!ds) return alert('info', 'No datastore selected.');
  const enter = (ctx.route.params.mode ?? 'enter') !== 'exit';
  const ignore = h('input', { id: 'ignore-affinity', type: 'checkbox', class: 'clr-checkbox' }) as HTMLInputElement;
  // the datastore's cluster's "Ignore affinity rules for maintenance" (vCenter's IgnoreAffinityRulesForMaintenance) unless changed here
  const owner = (await ctx.api.datastores()).find((d) => d.name === ds)?.cluster;
  ignore.checked = (ctx.clusters.find((c) => c.id === owner) ?? ctx.cluster)?.settings.ignoreAffinityForMaintenance === true;
  const status = h('div', { 'aria-live': 'polite' });
  return modalShell('modal-maintenance',
    h('div', null,
      h('p', null, enter
        ? `Enter maintenance mode on ${ds}: vCenter marks it entering maintenance mode and places nothing new on it; Storage DRS recommends moving every virtual disk off it, and every VM home (configuration files) its disks leave behind; it stays "entering" until all are gone; disks that cannot move are reported as faults. While Storage DRS is off for the cluster, it recommends nothing until it is turned on.`
        : `Exit maintenance mode on ${ds}: it receives load again.`),
      enter ? h('div', { class: 'clr-checkbox-wrapper' }, ignore, h('label', { for: 'ignore-affinity' }, 'Ignore affinity rules for maintenance')) : null,
      status),
    button('Cancel', () => ctx.host.closeModal(), { testId: 'modal-cancel' }),
    button(enter ? 'Enter maintenance mode' : 'Exit maintenance mode', () => void runAction(status, enter ? 'Enter maintenance mode' : 'Exit maintenance mode', async () => {
      const r = await ctx.api.maintenance(ds, enter, ignore.checked);
      return `${ds}: ${r.state}` + (enter ? `, ${f.count(r.disksRemaining, 'disk')}`
        + (r.vmHomesRemaining ? ` and ${f.count(r.vmHomesRemaining, 'VM home')}` : '') + ` to move, ${f.count(r.recommendationIds.length, 'recommendation')}`
        + (r.faults.length ? `, ${f.count(r.faults.length, 'fault')}` : '') : '') + '.'
        + (enter && r.notes.length ? ` ${r.notes.join('; ')}.` : '');
    }), { kind: enter ? 'danger' : 'primary', testId: 'modal-confirm' }));
}

export function settingsModal(ctx: PageContext): Promise<HTMLElement> {
  return settingsPage(ctx, true);
}
