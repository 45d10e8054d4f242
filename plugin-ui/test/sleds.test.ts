import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readableAction, withServiceClass, withVmServiceClass, withoutServiceClass } from '../src/api';
import type { ApiClient, ClusterView, SettingsView, SledsStreamView, SledsView } from '../src/api';
import type { Host } from '../src/host';
import type { PageContext } from '../src/pages/context';
import { readServiceClass, sledsPage, SLEDS_REFRESH_MS } from '../src/pages/sleds';
import { parseRoute } from '../src/route';

const GOLD = { id: 'gold', deliveryBoundMs: 10, demandBoundIops: 500, demandBoundBytesPerSecond: 50 * 1024 * 1024, allowedMissPct: 5 };
const BULK = { id: 'bulk', deliveryBoundMs: 1000, demandBoundIops: 100, demandBoundBytesPerSecond: 1024 * 1024, allowedMissPct: 0 };

function stream(vmId: string, vmName: string, diskKey: number, classId: string, ds: [string, string], limit: number | null,
  windowSeconds = 1): SledsStreamView {
  return { host: 'esx1', vmId, vmName, diskKey, datastoreId: ds[0], datastoreName: ds[1], classId, windowSeconds, iops: 500, bytesPerSecond: 4096000,
    latencyMs: 5, iopsLimit: limit, bytesPerSecondLimit: limit == null ? null : limit * 8192 };
}

const STREAMS = [stream('vm-31', 'web', 2000, 'bulk', ['datastore-11', 'ds-a'], 400), stream('vm-32', 'db', 2000, 'gold', ['datastore-1', 'ds-one'], null, 20)];

describe('SLEDS settings edits', () => {
  it('a VM put in a class keeps its automation; taken out of every class with default automation, its entry goes', () => {
    const list = [{ vmId: 'vm-1', behavior: 'manual', serviceClass: undefined }, { vmId: 'vm-2', behavior: 'default', serviceClass: 'gold' }];
    expect(withVmServiceClass(list, 'vm-1', 'bulk')).toEqual([list[1], { vmId: 'vm-1', behavior: 'manual', serviceClass: 'bulk' }]);
    expect(withVmServiceClass(list, 'vm-2', null)).toEqual([list[0]]);
    expect(withVmServiceClass(list, 'vm-3', 'gold')).toEqual([...list, { vmId: 'vm-3', behavior: 'default', serviceClass: 'gold' }]);
  });

  it('a class of a known name is replaced in place, a new one added', () => {
    const changed = { ...GOLD, deliveryBoundMs: 5 };
    expect(withServiceClass([GOLD, BULK], changed)).toEqual([changed, BULK]);
    expect(withServiceClass([GOLD], BULK)).toEqual([GOLD, BULK]);
  });

  it('removing a class leaves its VMs in no class, and their automation as it was', () => {
    const s = { serviceClasses: [GOLD, BULK], vmOverrides: [{ vmId: 'vm-1', behavior: 'manual', serviceClass: 'gold' },
      { vmId: 'vm-2', behavior: 'default', serviceClass: 'gold' }, { vmId: 'vm-3', behavior: 'default', serviceClass: 'bulk' }] } as SettingsView;
    expect(withoutServiceClass(s, 'gold')).toEqual({ serviceClasses: [BULK],
      vmOverrides: [{ vmId: 'vm-3', behavior: 'default', serviceClass: 'bulk' }, { vmId: 'vm-1', behavior: 'manual', serviceClass: undefined }] });
  });

  it('the class form names the field that is wrong', () => {
    expect(readServiceClass({ id: 'gold', delivery: '10', iops: '500', mibps: '50', miss: '5' })).toEqual(GOLD);
    expect(readServiceClass({ id: 'go ld', delivery: '10', iops: '500', mibps: '50', miss: '5' })).toMatch(/^Class name:/);
    expect(readServiceClass({ id: 'gold', delivery: '0', iops: '500', mibps: '50', miss: '5' })).toMatch(/^Delivery bound: .* from 0.1 to 10000/);
    expect(readServiceClass({ id: 'gold', delivery: '10', iops: '', mibps: '50', miss: '5' })).toMatch(/^Demand bound, its streams together \(IOPS\)/);
    expect(readServiceClass({ id: 'gold', delivery: '10', iops: '5', mibps: 'x', miss: '5' })).toMatch(/MiB\/s/);
    expect(readServiceClass({ id: 'gold', delivery: '10', iops: '5', mibps: '1', miss: '101' })).toMatch(/^Delivery bound may be missed .* from 0 to 100/);
  });

  it("an action names streams by VM and disk and datastores by name, whole ids only", () => {
    expect(readableAction('tighten esx1/vm-31/2000 to 400 IOPS (its class is over its demand bound; competes with esx1/vm-32/2000 on datastore-1)', STREAMS))
      .toBe('tighten web disk 2000 to 400 IOPS (its class is over its demand bound; competes with db disk 2000 on ds-one)');
    // datastore-1 must not rewrite datastore-11, nor an id the streams do not explain
    expect(readableAction('relax esx1/vm-31/2000 on datastore-11 and datastore-111', STREAMS)).toBe('relax web disk 2000 on ds-a and datastore-111');
    expect(readableAction('relax old-datastore-1 and pre/esx1/vm-31/2000', STREAMS)).toBe('relax old-datastore-1 and pre/esx1/vm-31/2000');
    expect(readableAction('unthrottle esx9/vm-9/1', [])).toBe('unthrottle esx9/vm-9/1');
  });
});

/** The page over a fake server holding {@code settings}; PUTs are recorded and become what it holds. */
function page(initial: Partial<SettingsView>, view: SledsView) {
  const leaving: Array<() => void> = [];
  let held = { automationLevel: 'manual', latencyThresholdMs: 15, ...initial } as SettingsView;
  const puts: SettingsView[] = [];
  const sleds = vi.fn(async () => view);
  const api = {
    sleds,
    settings: async () => held,
    putSettings: async (_id: string, s: SettingsView) => {
      puts.push(s);
      held = s;
      return s;
    },
    disks: async () => [{ vm: 'vm-31', vmName: 'web', datastore: 'ds-a', diskKey: 2000 }, { vm: 'vm-32', vmName: 'db', datastore: 'ds-a', diskKey: 2000 }],
    datastores: async () => [{ name: 'ds-a' }],
  } as unknown as ApiClient;
  const cluster = { id: 'group-p1', name: 'pod1', settings: held } as unknown as ClusterView;
  const ctx: PageContext = {
    api, host: {} as Host, route: parseRoute('#/sleds'), cluster, clusters: [cluster], refresh: vi.fn(),
    navigate: () => undefined, onLeave: (fn) => leaving.push(fn),
  };
  return { ctx, puts, sleds, leave: () => leaving.splice(0).forEach((fn) => fn()) };
}

const VIEW: SledsView = {
  clusterId: 'group-p1', at: '2026-11-27T10:00:00Z', streams: STREAMS,
  classes: [{ ...GOLD, latencyMs: 18, meetsSlo: false, streams: 1, windows: 180, missedWindows: 12, compliant: false },
    { ...BULK, latencyMs: 5, meetsSlo: true, streams: 1, windows: 180, missedWindows: 0, compliant: true }],
  actions: ['tighten esx1/vm-31/2000 to 400 IOPS (its class is over its demand bound; competes with esx1/vm-32/2000 on datastore-1)'],
};

function rows(el: HTMLElement, testId: string): string[] {
  return [...el.querySelectorAll(`[data-testid="${testId}"] tbody tr`)].map((r) => r.textContent ?? '');
}

describe('service levels page', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows each class against its SLO, each stream with its limit, and the step in names', async () => {
    const p = page({ serviceClasses: [GOLD, BULK], vmOverrides: [{ vmId: 'vm-32', behavior: 'default', serviceClass: 'gold' }] }, VIEW);
    const el = await sledsPage(p.ctx);
    const classes = rows(el, 'sleds-classes-table');
    expect(classes[0]).toContain('gold');
    expect(classes[0]).toContain('18.0 ms');
    expect(classes[0]).toContain('missed');
    expect(classes[0]).toContain('SLO broken 12 of 180 missed (6.7 %; 5 % allowed)');
    expect(classes[1]).toContain('met');
    expect(classes[1]).toContain('SLO kept 0 of 180 missed (0.0 %; 0 % allowed)');
    const streams = rows(el, 'sleds-streams-table');
    expect(streams[0]).toContain('web');
    expect(streams[0]).toContain('ds-a');
    expect(streams[0]).toContain('400 IOPS');
    expect(streams[0]).toContain('5.00 ms over 1 s');
    expect(streams[1]).toContain('unthrottled');
    expect(streams[1]).toContain('over 20 s'); // its host's agent sends no seconds: the 20-s window stands for it
    expect(el.querySelector('[data-testid="sleds-actions"]')?.textContent).toBe('tighten web disk 2000 to 400 IOPS (its class is over its demand bound; competes with db disk 2000 on ds-one)');
    expect(rows(el, 'sleds-members-table')).toEqual(['dbgold']);
  });

  it('saving a class writes it into the settings the server holds, the rest unchanged', async () => {
    const p = page({ serviceClasses: [GOLD] }, VIEW);
    const el = await sledsPage(p.ctx);
    const set = (id: string, v: string) => ((el.querySelector(`#sleds-class-${id}`) as HTMLInputElement).value = v);
    set('id', 'bulk'); set('delivery', '1000'); set('iops', '100'); set('mibps', '1'); set('miss', '0');
    (el.querySelector('[data-testid="sleds-class-save"]') as HTMLButtonElement).click();
    await vi.advanceTimersByTimeAsync(0);
    expect(p.puts).toHaveLength(1);
    expect(p.puts[0]).toMatchObject({ automationLevel: 'manual', latencyThresholdMs: 15, serviceClasses: [GOLD, BULK] });
    expect(el.querySelector('[data-testid="sleds-saved"]')?.textContent).toContain('Class bulk');
    // the VM form offers the new class
    expect([...(el.querySelector('#sleds-member-class') as HTMLSelectElement).options].map((o) => o.value)).toEqual(['', 'gold', 'bulk']);
  });

  it('a bad field is refused on the page and nothing is written', async () => {
    const p = page({ serviceClasses: [] }, VIEW);
    const el = await sledsPage(p.ctx);
    (el.querySelector('#sleds-class-id') as HTMLInputElement).value = 'gold';
    (el.querySelector('[data-testid="sleds-class-save"]') as HTMLButtonElement).click();
    await vi.advanceTimersByTimeAsync(0);
    expect(p.puts).toHaveLength(0);
    expect(el.querySelector('[data-testid="sleds-error"]')?.textContent).toMatch(/^Delivery bound/);
  });

  it('a VM is put in a class, and removing the class takes it out', async () => {
    const p = page({ serviceClasses: [GOLD], vmOverrides: [] }, VIEW);
    const el = await sledsPage(p.ctx);
    (el.querySelector('#sleds-member-vm') as HTMLSelectElement).value = 'vm-31';
    (el.querySelector('#sleds-member-class') as HTMLSelectElement).value = 'gold';
    (el.querySelector('[data-testid="sleds-member-set"]') as HTMLButtonElement).click();
    await vi.advanceTimersByTimeAsync(0);
    expect(p.puts[0].vmOverrides).toEqual([{ vmId: 'vm-31', behavior: 'default', serviceClass: 'gold' }]);
    expect(rows(el, 'sleds-members-table')).toEqual(['webgold']);
    (el.querySelector('[data-testid="sleds-remove-gold"]') as HTMLButtonElement).click();
    await vi.advanceTimersByTimeAsync(0);
    expect(p.puts[1]).toMatchObject({ serviceClasses: [], vmOverrides: [] });
    expect(el.querySelector('[data-testid="sleds-members-table-empty"]')).not.toBeNull();
  });

  it('reads the controller again every 2 s while shown, and nothing once left', async () => {
    const p = page({ serviceClasses: [GOLD] }, VIEW);
    await sledsPage(p.ctx);
    expect(p.sleds).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2 * SLEDS_REFRESH_MS);
    expect(p.sleds).toHaveBeenCalledTimes(3);
    p.leave();
    await vi.advanceTimersByTimeAsync(5 * SLEDS_REFRESH_MS);
    expect(p.sleds).toHaveBeenCalledTimes(3);
  });
});
