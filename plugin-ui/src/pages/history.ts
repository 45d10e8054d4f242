import { h } from '../dom';
import type { HistoryView, FaultView, StatisticsFaultView } from '../api';
import * as f from '../format';
import { alert, pageHeader, table } from '../ui';
import type { PageContext } from './context';

export async function historyPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('History'), alert('info', 'No datastore cluster.'));
  const rows = await ctx.api.history(c.id);
  return h('div', { 'data-testid': 'page-history' },
    pageHeader(`History — ${c.name}`, 'Storage DRS actions, newest first'),
    table<HistoryView>('History of actions', [
      { header: 'When', cell: (r) => f.instant(r.occurredAt) },
      { header: 'Action', cell: (r) => r.action },
      { header: 'Detail', cell: (r) => r.detail ?? '—' },
      { header: 'Recommendation', numeric: true, cell: (r) => r.recommendationId ?? '—' },
    ], rows, 'no actions yet.', 'history-table'));
}

export async function faultsPage(ctx: PageContext): Promise<HTMLElement> {
  const c = ctx.cluster;
  if (!c) return h('div', null, pageHeader('Faults'), alert('info', 'No datastore cluster.'));
  const [rows, stats] = await Promise.all([ctx.api.faults(c.id), ctx.api.statistics(c.id)]);
  const active = stats.faults.filter((x) => x.active);
  return h('div', { 'data-testid': 'page-faults' },
    pageHeader(`Faults — ${c.name}`, 'Moves Storage DRS could not make, and problems reading the IO statistics from vCenter'),
    alert(active.length ? 'warning' : 'info', active.length
      ? `IO statistics: ${f.count(active.length, 'problem')} reading vCenter's performance counters; Storage DRS balances on what it could read.`
      : `IO statistics are read from vCenter's performance counters every ${stats.intervalSeconds} s`
        + (stats.newestSample ? `; newest sample ${f.instant(stats.newestSample)}` : '; no sample read yet') + '.'),
    table<StatisticsFaultView>('Reading IO statistics from vCenter', [
      { header: 'Since', cell: (r) => f.instant(r.firstSeen) },
      { header: 'Subject', cell: (r) => r.subject },
      { header: 'Problem', cell: (r) => r.detail },
      { header: 'Seen', numeric: true, cell: (r) => r.occurrences },
      { header: 'State', cell: (r) => r.active ? 'active' : `resolved ${f.instant(r.resolvedAt ?? r.lastSeen)}` },
    ], stats.faults, 'no problems reading the statistics.', 'statistics-faults-table'),
    table<FaultView>('Faults', [
      { header: 'When', cell: (r) => f.instant(r.createdAt) },
      { header: 'Subject', cell: (r) => r.subject },
      { header: 'Reason', cell: (r) => r.reason },
    ], rows, 'no faults.', 'faults-table'));
}
