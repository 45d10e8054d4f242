/** Formatting of numbers, sizes, times and Storage DRS codes for display. */

const DASH = '—';

export function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Bytes in binary units: 1.5 GiB, 931 MiB. */
export function bytes(n: number | null | undefined): string {
  if (!isNum(n)) return DASH;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = Math.abs(n);
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const s = i === 0 ? String(Math.round(v)) : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  return `${n < 0 ? '-' : ''}${s} ${units[i]}`;
}

/** Milliseconds with sensible precision: 0.42 ms, 3.1 ms, 27 ms. */
export function ms(n: number | null | undefined): string {
  if (!isNum(n)) return DASH;
  const a = Math.abs(n);
  return `${a >= 100 ? n.toFixed(0) : a >= 10 ? n.toFixed(1) : n.toFixed(2)} ms`;
}

export function pct(n: number | null | undefined, digits = 1): string {
  return isNum(n) ? `${n.toFixed(digits)} %` : DASH;
}

/** Operations per second, grouped: 12,345 IOPS. */
export function iops(n: number | null | undefined): string {
  return isNum(n) ? `${Math.round(n).toLocaleString('en-US')} IOPS` : DASH;
}

export function num(n: number | null | undefined, digits = 2): string {
  if (!isNum(n)) return DASH;
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  return Number(n.toFixed(digits)).toString();
}

/** An interval "[a, b] ms". */
export function interval(lo: number | null | undefined, hi: number | null | undefined): string {
  return isNum(lo) && isNum(hi) ? `[${ms(lo).replace(' ms', '')}, ${ms(hi)}]` : DASH;
}

/** ISO instant → "2026-11-21 04:49:14 UTC" (stable across machines: always UTC). */
export function instant(iso: string | null | undefined): string {
  if (!iso) return DASH;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC');
}

/** ISO-8601 duration (PT1H, PT16H, PT30M) → "1 h", "16 h", "30 min". */
export function window(iso: string): string {
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(iso);
  if (!m) return iso;
  const parts = [m[1] && `${m[1]} h`, m[2] && `${m[2]} min`, m[3] && `${m[3]} s`].filter(Boolean);
  return parts.join(' ') || '0 s';
}

const REASONS: Record<string, string> = {
  balanceDatastoreSpaceUsage: 'Balance datastore space usage',
  balanceDatastoreIOLoad: 'Balance datastore I/O load',
  datastoreMaint: 'Datastore is entering maintenance mode',
  datastoreSpaceOutage: 'Datastore space outage',
  virtualDiskJointAffin: 'Fix virtual disk affinity rule',
  virtualDiskAntiAffin: 'Fix virtual disk anti-affinity rule',
  storagePlacement: 'Initial placement',
};

/** SPEC §4 reason codes in the vSphere Client's words; unknown codes as given. */
export function reason(code: string): string {
  return REASONS[code] ?? code;
}

const MODELS: Record<string, string> = {
  pesto: 'Pesto (L-Q slope)',
  basil: 'BASIL',
  romano: 'Romano',
  queueing: 'Queueing',
  auto: 'Automatic',
};

export function modelName(kind: string | null | undefined): string {
  if (!kind) return DASH;
  return MODELS[kind] ?? kind;
}

/** "1 disk", "2 disks". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * What is left on a datastore entering maintenance, in one sentence: the items its evacuation moves and their
 * bytes, then the swap files hosts keep there (status host_swap), which no relocation moves.
 */
export function leftSummary(left: ReadonlyArray<{ sizeBytes: number; status: string }>): string {
  const kept = left.filter((l) => l.status === 'host_swap');
  const moving = left.filter((l) => l.status !== 'host_swap');
  const parts: string[] = [];
  if (moving.length || !kept.length) {
    parts.push(`${count(moving.length, 'item')} to move, ${bytes(moving.reduce((sum, l) => sum + l.sizeBytes, 0))} in all`);
  }
  if (kept.length) {
    parts.push(`${count(kept.length, 'swap file')} (${bytes(kept.reduce((sum, l) => sum + l.sizeBytes, 0))}) kept here by `
      + `${kept.length === 1 ? 'its host' : 'their hosts'} until ${kept.length === 1 ? 'its VM stops' : 'their VMs stop'}`);
  }
  return `${parts.join('; ')}.`;
}

/** "vm-12 · disk 2000", "vm-12 (whole VM)" or, for a move of its home alone, "vm-12 (VM home)". */
export function diskLabel(vm: string, diskKey: number | null | undefined, vmName?: string, homeOnly?: boolean): string {
  const who = vmName ? `${vmName}` : vm;
  if (homeOnly) return `${who} (VM home)`;
  return isNum(diskKey) ? `${who} · disk ${diskKey}` : `${who} (whole VM)`;
}

/** Where a disk or VM home left on a datastore in maintenance mode stands in its evacuation (server EvacuationCoverage.Status). */
export function standing(status: string): { label: string; kind: 'info' | 'success' | 'warning' | 'danger' | 'neutral' } {
  switch (status) {
    case 'moving': return { label: 'moving', kind: 'info' };
    case 'recommended': return { label: 'recommended, awaiting approval', kind: 'warning' };
    case 'moved': return { label: 'moved', kind: 'success' };
    case 'fault': return { label: 'cannot move', kind: 'danger' };
    case 'failed': return { label: 'move failed', kind: 'danger' };
    case 'dismissed': return { label: 'move dismissed', kind: 'neutral' };
    case 'unplanned': return { label: 'not planned yet', kind: 'neutral' };
    case 'outdated': return { label: 'its move was withdrawn: planned again', kind: 'warning' };
    case 'back': return { label: 'back after its move: planned again', kind: 'warning' };
    case 'host_swap': return { label: 'kept here by its host: goes when the VM stops', kind: 'danger' };
    default: return { label: status, kind: 'neutral' };
  }
}
