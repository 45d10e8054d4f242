import { describe, expect, it } from 'vitest';
import * as f from '../src/format';

describe('format', () => {
  it('bytes in binary units', () => {
    expect(f.bytes(0)).toBe('0 B');
    expect(f.bytes(1536)).toBe('1.50 KiB');
    expect(f.bytes(1099511627776)).toBe('1.00 TiB');
    expect(f.bytes(329853488332)).toBe('307 GiB');
    expect(f.bytes(null)).toBe('—');
    expect(f.bytes(NaN)).toBe('—');
  });
  it('milliseconds with precision by size', () => {
    expect(f.ms(0.4212)).toBe('0.42 ms');
    expect(f.ms(12.345)).toBe('12.3 ms');
    expect(f.ms(250.4)).toBe('250 ms');
    expect(f.ms(undefined)).toBe('—');
  });
  it('percent, IOPS, numbers, intervals', () => {
    expect(f.pct(85.00000003)).toBe('85.0 %');
    expect(f.iops(32258.06)).toBe('32,258 IOPS');
    expect(f.num(0.98213, 3)).toBe('0.982');
    expect(f.num(12345.6)).toBe('12,346');
    expect(f.interval(3.1, 4.25)).toBe('[3.10, 4.25 ms]');
    expect(f.interval(null, 4)).toBe('—');
  });
  it('instants in UTC and ISO durations', () => {
    expect(f.instant('2026-11-21T04:55:14.004353Z')).toBe('2026-11-21 04:55:14 UTC');
    expect(f.instant(null)).toBe('—');
    expect(f.instant('garbage')).toBe('garbage');
    expect(f.window('PT1H')).toBe('1 h');
    expect(f.window('PT16H')).toBe('16 h');
    expect(f.window('PT1H30M')).toBe('1 h 30 min');
    expect(f.window('P1D')).toBe('P1D');
  });
  it('reason codes and model names', () => {
    expect(f.reason('balanceDatastoreIOLoad')).toBe('Balance datastore I/O load');
    expect(f.reason('datastoreMaint')).toMatch(/maintenance/);
    expect(f.reason('somethingNew')).toBe('somethingNew');
    expect(f.modelName('pesto')).toMatch(/Pesto/);
    expect(f.modelName('custom')).toBe('custom');
    expect(f.diskLabel('vm-1', 2000, 'db-01')).toBe('db-01 · disk 2000');
    expect(f.diskLabel('vm-1', null)).toBe('vm-1 (whole VM)');
    expect(f.diskLabel('vm-1', null, 'web', true)).toBe('web (VM home)');
    expect([f.count(1, 'VM home'), f.count(2, 'disk'), f.count(0, 'fault')]).toEqual(['1 VM home', '2 disks', '0 faults']);
  });
  it('where a disk or VM home left on a datastore in maintenance mode stands (server EvacuationCoverage.Status)', () => {
    const statuses = ['moving', 'recommended', 'moved', 'fault', 'failed', 'dismissed', 'unplanned', 'outdated', 'back', 'host_swap'];
    const labels = statuses.map((s) => f.standing(s).label);
    expect(new Set(labels).size).toBe(statuses.length);
    expect(f.standing('fault')).toEqual({ label: 'cannot move', kind: 'danger' });
    expect(f.standing('unplanned').label).toBe('not planned yet');
    expect(f.standing('outdated')).toEqual({ label: 'its move was withdrawn: planned again', kind: 'warning' });
    expect(f.standing('host_swap')).toEqual({ label: 'kept here by its host: goes when the VM stops', kind: 'danger' });
    expect(f.standing('somethingNew')).toEqual({ label: 'somethingNew', kind: 'neutral' });
  });
  it('sums up what is left on a datastore entering maintenance, swap files its hosts keep apart', () => {
    const home = { sizeBytes: 2048, status: 'recommended' };
    const disk = { sizeBytes: 1 << 30, status: 'moving' };
    const swap = { sizeBytes: 512 << 20, status: 'host_swap' };
    expect(f.leftSummary([home, disk])).toBe('2 items to move, 1.00 GiB in all.');
    expect(f.leftSummary([home, swap])).toBe('1 item to move, 2.00 KiB in all; 1 swap file (512 MiB) kept here by its host until its VM stops.');
    expect(f.leftSummary([swap, swap])).toBe('2 swap files (1.00 GiB) kept here by their hosts until their VMs stop.');
    expect(f.leftSummary([])).toBe('0 items to move, 0 B in all.');
  });
});
