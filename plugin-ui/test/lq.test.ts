import { describe, expect, it } from 'vitest';
import { fitLine, iopsAt, latencyAlpha, latencyAt, lineOf, lqSeries, peakIops, SIOC_DEFAULT_THRESHOLD_MS } from '../src/lq';

describe('Pesto L-Q relations', () => {
  const l = { m: 0.5, c: 4 };
  it('line, throughput and the 1/slope asymptote', () => {
    expect(latencyAt(l, 10)).toBe(9);
    expect(iopsAt(l, 10)).toBeCloseTo((10 / 9) * 1000);
    expect(peakIops(l)).toBe(2000);
    expect(iopsAt(l, 1e6)).toBeLessThan(peakIops(l));
    expect(iopsAt(l, 1e6)).toBeGreaterThan(0.99 * peakIops(l));
  });
  it('L_α (Eq. 9): the latency at α of peak throughput', () => {
    expect(latencyAlpha(l, 0.9)).toBeCloseTo(40);
    // at L_α the throughput is α of peak
    const q = (40 - l.c) / l.m;
    expect(iopsAt(l, q) / peakIops(l)).toBeCloseTo(0.9);
    expect(() => latencyAlpha(l, 1)).toThrow(RangeError);
  });
  it('reads m and C from model parameters', () => {
    expect(lineOf({ m: 0.52, C: 4.1 })).toEqual({ m: 0.52, c: 4.1 });
    expect(lineOf({ m: 0.52 })).toEqual({ m: 0.52, c: 0 });
    expect(lineOf({ K1: 1 })).toBeNull();
    expect(lineOf({ m: -1, C: 1 })).toBeNull();
    expect(lineOf(null)).toBeNull();
  });
  it('least squares through points', () => {
    const pts = [1, 2, 4, 8].map((q) => ({ outstandingIos: q, latencyMs: 0.5 * q + 4 }));
    const f = fitLine(pts)!;
    expect(f.m).toBeCloseTo(0.5);
    expect(f.c).toBeCloseTo(4);
    expect(fitLine([{ outstandingIos: 1, latencyMs: 1 }])).toBeNull();
  });
});

describe('L-Q plot series', () => {
  it('aligns measured points on a grid with the line, IOPS and the peak', () => {
    const pts = [2, 8, 32].map((q) => ({ outstandingIos: q, ioSizeKb: 4, readShare: 1, randomness: 1, latencyMs: 0.5 * q + 4, iops: q === 8 ? 900 : null }));
    const s = lqSeries(pts, { m: 0.5, c: 4 }, 10);
    expect(s.x[0]).toBe(0);
    expect(Math.max(...s.x)).toBe(40);
    expect(s.x).toEqual([...s.x].sort((a, b) => a - b));
    const i8 = s.x.indexOf(8);
    expect(s.measuredLatency[i8]).toBe(8);
    expect(s.measuredIops[i8]).toBe(900);
    const i2 = s.x.indexOf(2);
    expect(s.measuredIops[i2]).toBeCloseTo(400); // Little's law when the point has no IOPS
    expect(s.measuredLatency.filter((v) => v !== null)).toHaveLength(3);
    expect(s.fittedLatency[s.x.indexOf(0)]).toBe(4);
    expect(new Set(s.peak)).toEqual(new Set([2000]));
    expect(lqSeries(pts, null).fittedLatency.every((v) => v === null)).toBe(true);
  });
});

describe('issue 42: C >= 0', () => {
  // fio-plot's P420i 7.2k disk, 4 KiB random writes, depths 2–32: least squares gives C ≈ −2.06 ms
  const pts = [[2, 11.1583], [4, 21.2483], [8, 44.3351], [16, 85.8991], [32, 184.0523]]
    .map(([q, l]) => ({ outstandingIos: q, latencyMs: l }));

  it('fits the line through the origin where least squares gives C < 0', () => {
    const f = fitLine(pts)!;
    const sxy = pts.reduce((a, p) => a + p.outstandingIos * p.latencyMs, 0);
    const sxx = pts.reduce((a, p) => a + p.outstandingIos * p.outstandingIos, 0);
    expect(f.c).toBe(0);
    expect(f.m).toBeCloseTo(sxy / sxx, 9);
  });

  it("shows SIOC's default threshold, not 0 ms, for a line with C = 0", () => {
    expect(latencyAlpha({ m: 2.19, c: 0 }, 0.9)).toBe(SIOC_DEFAULT_THRESHOLD_MS);
  });
});
