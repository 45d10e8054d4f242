import { h } from '../dom';
import type { RuleView, VmOverrideView } from '../api';
import { alert, card, dl, errorBox, pageHeader, table } from '../ui';
import type { PageContext } from './context';

export async function rulesPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Rules'), alert('info', 'No datastore cluster.'));
  const [rules, overrides] = await Promise.all([
    ctx.api.rules(c.id).catch((e) => e as Error),
    ctx.api.vmOverrides(c.id).catch((e) => e as Error),
  ]);
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
      ], rules as RuleView[], 'no rules.', 'rules-table')),
    card('Per-VM overrides', overrides instanceof Error ? errorBox('VM overrides', overrides)
      : table<VmOverrideView>('VM overrides', [
        { header: 'VM', cell: (o) => o.vmName ?? o.vm },
        { header: 'Automation', cell: (o) => o.automationLevel },
        { header: 'Keep VMDKs together', cell: (o) => (o.keepVmdksTogether == null ? 'cluster default' : o.keepVmdksTogether ? 'yes' : 'no') },
      ], overrides as VmOverrideView[], 'no overrides.', 'overrides-table')));
}
