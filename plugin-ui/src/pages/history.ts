import { h } from '../dom';
import type { HistoryView, FaultView } from '../api';
import * as f from '../format';
import { alert, pageHeader, table } from '../ui';
import type { PageContext } from './context';

export async function historyPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('History'), alert('info', 'No datastore cluster.'));
  const rows = await ctx.api.history(c.id);
  return h('div', { 'data-testid': 'page-history' },
    pageHeader(`History — ${c.name}`, 'Storage DRS actions, newest first, with the measured outcome of each move where the server has it'),
    table<HistoryView>('History of actions', [
      { header: 'When', cell: (r) => f.instant(r.occurredAt) },
      { header: 'Action', cell: (r) => r.action },
      { header: 'Detail', cell: (r) => r.detail ?? '—' },
      { header: 'Recommendation', numeric: true, cell: (r) => r.recommendationId ?? '—' },
      { header: 'Measured outcome', cell: (r) => r.outcome
        ? `${f.ms(r.outcome.measuredBeforeMs)} → ${f.ms(r.outcome.measuredAfterMs)}${r.outcome.note ? ` (${r.outcome.note})` : ''}`
        : h('span', { class: 'muted' }, 'not measured') },
    ], rows, 'no actions yet.', 'history-table'));
}

export async function faultsPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Faults'), alert('info', 'No datastore cluster.'));
  const rows = await ctx.api.faults(c.id);
  return h('div', { 'data-testid': 'page-faults' },
    pageHeader(`Faults — ${c.name}`, 'Moves Storage DRS could not make, with the reason'),
    table<FaultView>('Faults', [
      { header: 'When', cell: (r) => f.instant(r.createdAt) },
      { header: 'Subject', cell: (r) => r.subject },
      { header: 'Reason', cell: (r) => r.reason },
    ], rows, 'no faults.', 'faults-table'));
}
