/**
 * Pesto's L-Q relation (SPEC §3.2): L = m·Q + C (Eq. 1), T = Q/(m·Q + C) (Eq. 3), peak T ≈ 1/m
 * (Eq. 4), L_α = C/(1 − α) (Eq. 9). The capacity planner's Q_max and Q_α (Eqs. 12, 13) come from the server.
 * Latency in ms, so T in IOs per ms; ×1000 for IOPS.
 */
import type { FitPoint } from './api';

export interface LqLine {
  /** slope, ms per outstanding IO */
  m: number;
  /** intercept, ms */
  c: number;
}

/** The L-Q line of a model's parameters (Pesto's m and C), or null when the model has none. */
export function lineOf(parameters: Record<string, number> | null | undefined): LqLine | null {
  const m = parameters?.m;
  const c = parameters?.C;
  if (typeof m !== 'number' || !Number.isFinite(m) || m <= 0) return null;
  return { m, c: typeof c === 'number' && Number.isFinite(c) ? c : 0 };
}

/** Least-squares line through the fit points (used when the model is not an L-Q model). */
export function fitLine(points: Array<Pick<FitPoint, 'outstandingIos' | 'latencyMs'>>): LqLine | null {
  const n = points.length;
  if (n < 2) return null;
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const p of points) {
    sx += p.outstandingIos;
    sy += p.latencyMs;
    sxx += p.outstandingIos * p.outstandingIos;
    sxy += p.outstandingIos * p.latencyMs;
  }
  const d = n * sxx - sx * sx;
  if (d === 0) return null;
  const m = (n * sxy - sx * sy) / d;
  const c = (sy - m * sx) / n;
  // C ≥ 0 (Eq. 1: latency at zero queue), as the server's LqEstimator: where least squares gives
  // C < 0 the best line under C ≥ 0 is the one through the origin, m = ΣQL/ΣQ².
  if (c < 0) return sxx > 0 && sxy > 0 ? { m: sxy / sxx, c: 0 } : null;
  if (!(m > 0)) return null;
  return { m, c };
}

export function latencyAt(l: LqLine, q: number): number {
  return l.m * q + l.c;
}

/** Throughput at Q outstanding IOs, IOPS (Eq. 3, Little's law). */
export function iopsAt(l: LqLine, q: number): number {
  const lat = latencyAt(l, q);
  return lat > 0 ? (q / lat) * 1000 : NaN;
}

/** The 1/slope asymptote: peak throughput, IOPS (Eq. 4). */
export function peakIops(l: LqLine): number {
  return 1000 / l.m;
}



/** SIOC's default congestion threshold (ms), the server's CongestionThresholds.SIOC_DEFAULT_THRESHOLD_MS. */
export const SIOC_DEFAULT_THRESHOLD_MS = 30;

/**
 * Latency at α of peak throughput: the congestion threshold (Eq. 9). A line with C ≤ 0 gives
 * L_α ≤ 0, no threshold: then SIOC's default, as the server sends to the hosts.
 */
export function latencyAlpha(l: LqLine, alpha: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError('alpha must be in (0, 1)');
  const la = l.c / (1 - alpha);
  return la > 0 && Number.isFinite(la) ? la : SIOC_DEFAULT_THRESHOLD_MS;
}


export interface LqSeries {
  x: number[];
  measuredLatency: Array<number | null>;
  fittedLatency: Array<number | null>;
  measuredIops: Array<number | null>;
  modelIops: Array<number | null>;
  peak: Array<number | null>;
}

/** Aligned data for uPlot: x = the measured OIOs and a grid from 0 to 1.25 × the largest. */
export function lqSeries(points: FitPoint[], line: LqLine | null, gridSteps = 40): LqSeries {
  const maxQ = Math.max(8, ...points.map((p) => p.outstandingIos)) * 1.25;
  const xs = new Set<number>();
  for (let i = 0; i <= gridSteps; i++) xs.add(+(maxQ * i / gridSteps).toFixed(4));
  points.forEach((p) => xs.add(p.outstandingIos));
  const x = [...xs].sort((a, b) => a - b);
  const byQ = new Map<number, FitPoint>();
  points.forEach((p) => byQ.set(p.outstandingIos, p));
  const peak = line ? peakIops(line) : null;
  return {
    x,
    measuredLatency: x.map((q) => byQ.get(q)?.latencyMs ?? null),
    fittedLatency: x.map((q) => (line ? Math.max(0, latencyAt(line, q)) : null)),
    measuredIops: x.map((q) => {
      const p = byQ.get(q);
      if (!p) return null;
      return p.iops ?? (p.latencyMs > 0 ? (p.outstandingIos / p.latencyMs) * 1000 : null);
    }),
    modelIops: x.map((q) => (line && q > 0 ? iopsAt(line, q) : line ? 0 : null)),
    peak: x.map(() => peak),
  };
}
