/**
 * The L-Q plot of a datastore (uPlot): measured fit points (latency against outstanding IOs),
 * the fitted line L = m·Q + C, the cluster's I/O latency threshold the line is judged against,
 * and on a second axis the throughput the line implies with its 1/slope asymptote, the peak IOPS
 * (Pesto Eqs. 1, 3, 4). Each series has its own legend marker (filled for measurements, hollow
 * for the model, dashed for limits), and the legend reads out the values under the cursor.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { FitPoint } from './api';
import { lqSeries, peakIops, type LqLine } from './lq';
import { h } from './dom';

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

/** Draws the plot into a figure; returns the figure and a function that redraws (theme change). */
export function lqPlot(title: string, points: FitPoint[], line: LqLine | null, thresholdMs: number | null = null):
  { el: HTMLElement; redraw: () => void; destroy: () => void } {
  const data = lqSeries(points, line);
  const threshold = data.x.map(() => thresholdMs);
  const holder = h('div', { class: 'lq-plot', 'data-testid': 'lq-plot' });
  const desc = line
    ? `L-Q plot: ${points.length} measured points, fitted line L = ${line.m.toFixed(3)}·Q + ${line.c.toFixed(2)} ms, peak ${Math.round(peakIops(line))} IOPS (1/slope)`
    : `L-Q plot: ${points.length} measured points; the model has no L-Q line`;
  const describedThreshold = thresholdMs == null ? '' : `; I/O latency threshold ${thresholdMs} ms`;
  const fig = h('figure', { class: 'lq-figure', 'aria-label': title },
    h('div', { role: 'img', 'aria-label': desc + describedThreshold }, holder),
    h('figcaption', { class: 'muted' }, desc + describedThreshold));
  let plot: uPlot | null = null;

  const draw = () => {
    plot?.destroy();
    const text = cssVar('--cds-alias-typography-color-400', getComputedStyle(document.body).color || '#333');
    const grid = cssVar('--cds-alias-object-border-color', 'rgba(128,128,128,0.3)');
    const blue = cssVar('--cds-alias-status-info', '#0072a3');
    const green = cssVar('--cds-alias-status-success', '#3c8500');
    const orange = cssVar('--cds-alias-status-warning-dark', '#c25400');
    const red = cssVar('--cds-alias-status-danger', '#db2100');
    const ms = (_u: uPlot, v: number | null) => (v == null ? '—' : `${v.toFixed(2)} ms`);
    const iops = (_u: uPlot, v: number | null) => (v == null ? '—' : `${Math.round(v).toLocaleString('en-US')} IOPS`);
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const opts: uPlot.Options = {
      width: Math.max(320, Math.min(900, (holder.parentElement?.clientWidth || 760) - 8)),
      height: 320,
      scales: { x: { time: false }, ms: { auto: true, range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] }, iops: { auto: true, range: (_u, _min, max) => [0, Math.max(1, max) * 1.15] } },
      axes: [
        { ...axis, label: 'Outstanding IOs (Q)' },
        { ...axis, scale: 'ms', label: 'Latency (ms)' },
        { ...axis, scale: 'iops', side: 1, label: 'Throughput (IOPS)', grid: { show: false } },
      ],
      series: [
        { label: 'Q', value: (_u, v) => (v == null ? '—' : v.toFixed(1)) },
        { label: 'Measured latency', scale: 'ms', stroke: blue, fill: blue, value: ms, paths: () => null, points: { show: true, size: 7, stroke: blue, fill: blue } },
        { label: 'Fitted L = m·Q + C', scale: 'ms', stroke: blue, width: 2, value: ms, points: { show: false }, spanGaps: true },
        { label: 'Measured IOPS', scale: 'iops', stroke: green, fill: green, value: iops, paths: () => null, points: { show: true, size: 6, stroke: green, fill: 'transparent' } },
        { label: 'Model IOPS Q/(m·Q + C)', scale: 'iops', stroke: green, width: 1.5, value: iops, points: { show: false }, spanGaps: true },
        { label: 'Peak 1/m', scale: 'iops', stroke: orange, width: 1.5, dash: [6, 4], value: iops, points: { show: false }, spanGaps: true },
        ...(thresholdMs == null ? [] : [{ label: `I/O latency threshold ${thresholdMs} ms`, scale: 'ms', stroke: red, width: 1.5, dash: [10, 4],
          value: ms, points: { show: false }, spanGaps: true }]),
      ],
      legend: { show: true, live: true },
      cursor: { show: true, drag: { x: false, y: false } },
    };
    const series = [data.x, data.measuredLatency, data.fittedLatency, data.measuredIops, data.modelIops, data.peak];
    if (thresholdMs != null) series.push(threshold);
    plot = new uPlot(opts, series as uPlot.AlignedData, holder);
  };
  return {
    el: fig,
    redraw: draw,
    destroy: () => plot?.destroy(),
  };
}
