import { describe, expect, it } from 'vitest';
import type { ClusterView, DatastoreDetail, DatastoreView } from '../src/api';
import { statusBar, type DatastoreRow } from '../src/pages/overview';

function cluster(pending: number, lastRunAt: string | null): ClusterView {
  return {
    id: 'group-p1', name: 'silver', settings: { latencyThresholdMs: 15 },
    status: { pendingRecommendations: pending, lastRunAt, lastRunTrigger: lastRunAt ? 'scheduled' : null,
      nextRunAt: '2026-11-28T16:00:00Z', faultsLast24h: 2 },
  } as unknown as ClusterView;
}

function row(name: string, p90: number): DatastoreRow {
  const detail = { percentiles: [{ window: 'PT5M', samples: 10, metrics: { LATENCY_MS: { p50: p90 / 2, p70: p90 / 1.5, p90 } } }] };
  return { ds: { name } as DatastoreView, detail: detail as unknown as DatastoreDetail };
}

describe('overview status bar', () => {
  it("says what awaits the administrator, the runs, the faults and the worst datastore, from the server's figures", () => {
    const el = statusBar(cluster(3, '2026-11-28T00:00:00Z'), [row('silver-7k1', 58.9), row('silver-10k2', 96.4)]);
    expect(el.querySelector('[data-testid="status-pending"]')?.textContent).toBe('3 pending recommendations');
    expect(el.querySelector('[data-testid="status-last-run"]')?.textContent).toContain('(scheduled)');
    expect(el.querySelector('[data-testid="status-faults"]')?.textContent).toBe('2 faults in 24 h');
    expect(el.querySelector('[data-testid="status-worst"]')?.textContent).toBe('worst p90 96.4 ms on silver-10k2 (threshold 15 ms)');
    expect(el.querySelector('[data-testid="status-over-threshold"]')).toBeNull();
  });

  it('warns when a datastore is over the threshold and nothing is pending', () => {
    const el = statusBar(cluster(0, '2026-11-28T00:00:00Z'), [row('silver-10k1', 216)]);
    expect(el.querySelector('[data-testid="status-over-threshold"]')?.textContent)
      .toContain('silver-10k1 is over the 15 ms I/O latency threshold (p90 216 ms) and no recommendation is pending');
    const calm = statusBar(cluster(0, null), [row('gold-ssd1', 0.3)]);
    expect(calm.querySelector('[data-testid="status-over-threshold"]')).toBeNull();
    expect(calm.querySelector('[data-testid="status-last-run"]')?.textContent).toBe('no run yet');
  });
});
