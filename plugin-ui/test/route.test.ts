import { describe, expect, it } from 'vitest';
import { parseRoute, routeHref } from '../src/route';
import { readSettings } from '../src/pages/settings';
import { clusterVms, multiDiskVms } from '../src/pages/rules';

describe('routes', () => {
  it('parses pages, arguments, modals and parameters', () => {
    expect(parseRoute('')).toEqual({ page: 'overview', arg: undefined, params: {} });
    expect(parseRoute('#/datastore/ds%201?cluster=group-p1')).toEqual({ page: 'datastore', arg: 'ds 1', params: { cluster: 'group-p1' } });
    expect(parseRoute('#/modal/maintenance?datastore=ds1&mode=exit')).toEqual({ page: 'modal/maintenance', arg: undefined, params: { datastore: 'ds1', mode: 'exit' } });
    expect(parseRoute('#/datastore/%E0%A4%A')).toMatchObject({ page: 'datastore', arg: '%E0%A4%A' });
  });
  it('builds hrefs that parse back', () => {
    const href = routeHref('datastore', { cluster: 'group-p1', x: undefined }, 'a/b c');
    expect(href).toBe('#/datastore/a%2Fb%20c?cluster=group-p1');
    expect(parseRoute(href)).toEqual({ page: 'datastore', arg: 'a/b c', params: { cluster: 'group-p1' } });
  });
});

describe('settings form', () => {
  const base = { storageDrsEnabled: true, modelKind: 'auto', automationLevel: 'manual', spaceThresholdPct: 80, minSpaceDifferencePct: 5, latencyThresholdMs: 15,
    ioImbalanceThreshold: 5, loadBalanceIntervalMinutes: 960, ioLoadBalanceEnabled: true, keepVmdksTogether: true,
    ignoreAffinityForMaintenance: false, ruleAutomationLevel: 'inherit', evacuationAutomationLevel: 'inherit', congestionAlpha: 0.9, spaceAutomationLevel: 'inherit', ioAutomationLevel: 'inherit', strategy: 'auto', spaceThresholdMode: 'utilization', freeSpaceThresholdGb: 50,
    serviceClasses: [], vmOverrides: [] };
  const values = { storageDrsEnabled: false, modelKind: 'pesto', automationLevel: 'automated', spaceThresholdPct: '85', minSpaceDifferencePct: '5', latencyThresholdMs: '20',
    ioImbalanceThreshold: '5', loadBalanceIntervalMinutes: '480', ioLoadBalanceEnabled: false, keepVmdksTogether: true,
    ignoreAffinityForMaintenance: true, ruleAutomationLevel: 'inherit', evacuationAutomationLevel: 'manual', congestionAlpha: '0.8',
    spaceAutomationLevel: 'automated', ioAutomationLevel: 'inherit', strategy: 'romano', spaceThresholdMode: 'freeSpace', freeSpaceThresholdGb: '40' };
  it('reads a valid form', () => {
    expect(readSettings(values, base)).toEqual({ ...base, storageDrsEnabled: false, modelKind: 'pesto', automationLevel: 'automated', spaceThresholdPct: 85,
      latencyThresholdMs: 20, loadBalanceIntervalMinutes: 480, ioLoadBalanceEnabled: false, ignoreAffinityForMaintenance: true,
      evacuationAutomationLevel: 'manual', congestionAlpha: 0.8,
      spaceAutomationLevel: 'automated', strategy: 'romano', spaceThresholdMode: 'freeSpace', freeSpaceThresholdGb: 40 });
  });
  it('refuses out-of-range values with the field named (SPEC §4 ranges)', () => {
    expect(readSettings({ ...values, latencyThresholdMs: '4' }, base)).toMatch(/I\/O latency threshold/);
    expect(readSettings({ ...values, spaceThresholdPct: '101' }, base)).toMatch(/Space threshold/);
    expect(readSettings({ ...values, congestionAlpha: '1' }, base)).toMatch(/α/);
    expect(readSettings({ ...values, loadBalanceIntervalMinutes: 'abc' }, base)).toMatch(/interval/);
    expect(readSettings({ ...values, freeSpaceThresholdGb: '0' }, base)).toMatch(/Free space threshold/);
  });
});

describe('rules page', () => {
  it('offers the VMs with a disk in the cluster, once each, by name', () => {
    // a disk on no datastore has null on the wire; the generated types do not say so (README)
    const disk = (vm: string, vmName: string, datastore: string | null) => ({ vm, vmName, diskKey: 1, file: '', sizeBytes: 1, datastore: datastore as string });
    const disks = [disk('vm-2', 'web', 'ds1'), disk('vm-2', 'web', 'ds2'), disk('vm-1', 'db', 'ds2'), disk('vm-3', 'other', 'dsX'), disk('vm-4', 'lost', null)];
    expect(clusterVms(disks, new Set(['ds1', 'ds2']))).toEqual([['vm-1', 'db'], ['vm-2', 'web']]);
    expect(clusterVms(disks, new Set())).toEqual([]);
  });
  it('offers for a VMDK rule the VMs with two or more disks in the cluster, with those disks only', () => {
    const disk = (vm: string, vmName: string, diskKey: number, datastore: string | null) =>
      ({ vm, vmName, diskKey, file: `${vmName}/d${diskKey}.vmdk`, sizeBytes: 1, datastore: datastore as string });
    const disks = [disk('vm-2', 'web', 1, 'ds1'), disk('vm-2', 'web', 2, 'ds2'), disk('vm-2', 'web', 3, 'dsX'),
      disk('vm-1', 'db', 1, 'ds2'), disk('vm-1', 'db', 2, null), disk('vm-3', 'app', 1, 'ds1'), disk('vm-3', 'app', 2, 'ds1')];
    expect(multiDiskVms(disks, new Set(['ds1', 'ds2']))).toEqual([
      { id: 'vm-3', name: 'app', disks: [[1, 'app/d1.vmdk'], [2, 'app/d2.vmdk']] },
      { id: 'vm-2', name: 'web', disks: [[1, 'web/d1.vmdk'], [2, 'web/d2.vmdk']] }]);
  });
});
