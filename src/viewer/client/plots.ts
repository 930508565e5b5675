import * as Plot from '@observablehq/plot';
import { h } from './dom.ts';
import type { Row } from './api.ts';
import { placeBins, type Bin, type MeasureRange } from './place-bins.ts';

/** The run data both the run page and the HTML report plot (src/viewer/queries.ts runDetail). */
export interface RunData {
  run: Row;
  reports: Record<string, { columns: string[]; rows: Row[] }>;
  histograms: Record<string, Row[]>;
  ddr: Row[];
  topK: Row[];
  ratings: Row[];
}

const WIDTH = 460;
/** A share of something (coverage): 0 to 1. */
const RATIO: MeasureRange = { min: 0, max: 1 };
/** A duration, a count, a cost or an entropy: never below 0. */
const NON_NEGATIVE: MeasureRange = { min: 0 };

function figure(id: string, title: string, chart: Element): HTMLElement {
  return h('figure', { class: 'plot', 'data-plot': id }, h('figcaption', {}, title), chart);
}

/** A histogram of one measure, from the bins the server computed (src/viewer/queries.ts), kept inside the measure's range. */
function histogram(id: string, title: string, bins: Row[] | undefined, label: string, range: MeasureRange): HTMLElement | null {
  if (!bins || bins.length === 0) return null;
  const total = bins.reduce((sum, bin) => sum + Number(bin.count), 0);
  const { bins: placed, domain } = placeBins(bins as Bin[], range);
  return figure(id, `${title} (${total} episodes)`, Plot.plot({ width: WIDTH, height: 200, x: { label, domain }, y: { grid: true, label: 'episodes' }, marks: [Plot.rectY(placed, { x1: 'x0', x2: 'x1', y: 'count', fill: '#60a5fa', inset: 0.5, tip: true }), Plot.ruleY([0])] }));
}

/**
 * Every plot a run has data for: SR/PSR per structure, violation and correction rate per category, DDR accuracy per
 * scenario beside the explorer baseline, the top-k curve, pass^k / pass@k, coverage and entropy, plan ratings, and
 * duration / token / cost histograms.
 */
export function runPlots(data: RunData): HTMLElement[] {
  const plots: Array<HTMLElement | null> = [];
  const board = (data.reports.leaderboard?.rows ?? []).filter((row) => row.group !== 'overall' && row.group !== 'ungraded');
  const rates = board.flatMap((row) => [
    { group: row.group, measure: 'SR', value: row.sr },
    { group: row.group, measure: 'PSR', value: row.psr },
  ]).filter((row) => typeof row.value === 'number');
  if (rates.length > 0) {
    plots.push(figure('sr-psr', 'SR and PSR per structure', Plot.plot({
      width: WIDTH, height: 240, marginBottom: 40, fx: { label: null }, x: { axis: null }, y: { domain: [0, 1], grid: true, label: 'rate', percent: false },
      color: { legend: true, domain: ['SR', 'PSR'], range: ['#2563eb', '#93c5fd'] },
      marks: [Plot.barY(rates, { fx: 'group', x: 'measure', y: 'value', fill: 'measure', tip: true }), Plot.ruleY([0])],
    })));
  }
  const categories = data.reports.violations?.rows ?? [];
  if (categories.length > 0) {
    const height = 60 + 22 * categories.length;
    plots.push(figure('violations', 'Violation rate per constraint category', Plot.plot({
      width: WIDTH, height, marginLeft: 220, x: { domain: [0, 1], grid: true, label: 'violated / constraints' }, y: { label: null },
      marks: [Plot.barX(categories, { y: 'category', x: 'violation_rate', fill: '#ef4444', tip: true, title: (d: Row) => `${d.category}: ${d.violated} of ${d.constraints} violated` }), Plot.ruleX([0])],
    })));
    const corrected = categories.filter((row) => typeof row.correction_rate === 'number');
    if (corrected.length > 0) {
      plots.push(figure('corrections', 'Correction rate per category (corrected / violated)', Plot.plot({
        width: WIDTH, height: 60 + 22 * corrected.length, marginLeft: 220, x: { domain: [0, 1], grid: true, label: 'corrected / violated' }, y: { label: null },
        marks: [Plot.barX(corrected, { y: 'category', x: 'correction_rate', fill: '#f59e0b', tip: true }), Plot.ruleX([0])],
      })));
    }
  }
  if (data.ddr.length > 0) {
    const bars = data.ddr.flatMap((row) => [
      { scenario: row.scenario, who: 'this run', value: row.accuracy },
      ...(typeof row.explorer === 'number' ? [{ scenario: row.scenario, who: 'explorer baseline', value: row.explorer }] : []),
    ]);
    plots.push(figure('ddr-accuracy', 'DDR checklist accuracy per scenario, beside the explorer baseline', Plot.plot({
      width: WIDTH, height: 240, x: { axis: null }, fx: { label: null }, y: { domain: [0, 1], grid: true, label: 'accuracy' },
      color: { legend: true, domain: ['this run', 'explorer baseline'], range: ['#2563eb', '#9ca3af'] },
      marks: [Plot.barY(bars, { fx: 'scenario', x: 'who', y: 'value', fill: 'who', tip: true }), Plot.ruleY([0])],
    })));
  }
  if (data.topK.length > 0) {
    plots.push(figure('top-k', 'Top-k curve (pooled accuracy by the first k messages)', Plot.plot({
      width: WIDTH, height: 220, x: { type: 'log', label: 'k' }, y: { domain: [0, 1], grid: true, label: 'accuracy' }, color: { legend: true },
      marks: [Plot.line(data.topK, { x: 'k', y: 'accuracy', stroke: 'scenario', marker: true, tip: true })],
    })));
  }
  const passK = (data.reports.pass_k?.rows ?? []).flatMap((row) => [
    { k: row.k, measure: 'pass^k', value: row['pass^k'] },
    { k: row.k, measure: 'pass@k', value: row['pass@k'] },
  ]);
  if ((data.reports.pass_k?.rows.length ?? 0) > 1) {
    plots.push(figure('pass-k', 'pass^k and pass@k over repeats', Plot.plot({
      width: WIDTH, height: 220, x: { label: 'k', ticks: data.reports.pass_k!.rows.map((row) => row.k) }, y: { domain: [0, 1], grid: true, label: null }, color: { legend: true },
      marks: [Plot.line(passK, { x: 'k', y: 'value', stroke: 'measure', marker: true, tip: true })],
    })));
  }
  plots.push(histogram('coverage', 'Column coverage', data.histograms.column_coverage, 'columns seen / columns', RATIO));
  plots.push(histogram('entropy', 'Exploration entropy', data.histograms.entropy, 'entropy', NON_NEGATIVE));
  if (data.ratings.length > 0) {
    plots.push(figure('plan-ratings', 'Plan ratings', Plot.plot({
      width: WIDTH, height: 60 + 24 * data.ratings.length, marginLeft: 120, x: { grid: true, label: 'episodes' }, y: { label: null, domain: data.ratings.map((row) => row.rating) },
      marks: [Plot.barX(data.ratings, { y: 'rating', x: 'episodes', fill: '#8b5cf6', tip: true }), Plot.ruleX([0])],
    })));
  }
  plots.push(histogram('duration', 'Episode duration', data.histograms.duration_ms, 'ms', NON_NEGATIVE));
  plots.push(histogram('latency', 'Model latency per episode', data.histograms.model_latency_ms, 'ms', NON_NEGATIVE));
  plots.push(histogram('tokens', 'Output tokens per episode', data.histograms.output_tokens, 'tokens', NON_NEGATIVE));
  plots.push(histogram('cost', 'Cost per episode (known prices only)', data.histograms.cost_usd, 'USD', NON_NEGATIVE));
  return plots.filter((plot): plot is HTMLElement => plot !== null);
}
