import * as Plot from '@observablehq/plot';
import { get, type Row } from '../api.ts';
import { basename, h, num, pct } from '../dom.ts';

function delta(value: unknown, percent = true): HTMLElement {
  if (typeof value !== 'number') return h('td', { class: 'num muted' }, '–');
  const text = percent ? `${value > 0 ? '+' : ''}${(100 * value).toFixed(1)} pts` : `${value > 0 ? '+' : ''}${value.toFixed(2)}`;
  return h('td', { class: `num ${value > 0 ? 'delta-pos' : value < 0 ? 'delta-neg' : ''}` }, text);
}

/** Compare: two runs side by side per task (pass, SR, PSR, blocked calls, violations) with the deltas B − A. */
export async function comparePage(root: HTMLElement, [a = '', b = '']: string[]): Promise<void> {
  const [rows, { runs }] = await Promise.all([get<Row[]>('/api/compare', { a, b }), get<{ runs: Row[] }>('/api/runs')]);
  const runA = runs.find((run) => run.run_dir === a);
  const runB = runs.find((run) => run.run_dir === b);
  const label = (run: Row | undefined, dir: string) => (run ? `${run.name} (${run.model ?? '?'}, ${run.enforcement ?? '?'})` : basename(dir));
  const deltas = rows.filter((row) => typeof row.delta_pass === 'number');
  root.append(h('div', {},
    h('h1', {}, 'Compare'),
    h('p', {}, h('strong', {}, 'A: '), h('a', { href: `#/run/${encodeURIComponent(a)}` }, label(runA, a)), ' · ', h('strong', {}, 'B: '), h('a', { href: `#/run/${encodeURIComponent(b)}` }, label(runB, b))),
    h('p', { class: 'muted' }, `pass A ${pct(runA?.pass_rate)} · B ${pct(runB?.pass_rate)} · SR A ${pct(runA?.sr)} · B ${pct(runB?.sr)} · PSR A ${pct(runA?.psr)} · B ${pct(runB?.psr)}`),
    deltas.length > 0 ? h('figure', { class: 'plot', 'data-plot': 'compare' }, h('figcaption', {}, 'Pass rate delta per task (B − A)'), Plot.plot({
      width: 640, height: 60 + 20 * deltas.length, marginLeft: 160, x: { label: 'B − A', domain: [-1, 1], grid: true }, y: { label: null },
      marks: [Plot.barX(deltas, { y: 'task_id', x: 'delta_pass', fill: (d: Row) => (d.delta_pass >= 0 ? '#16a34a' : '#dc2626'), tip: true }), Plot.ruleX([0])],
    })) : null,
    h('table', { id: 'compare-table' },
      h('thead', {}, h('tr', {}, ...['task', 'A pass', 'B pass', 'Δ pass', 'A SR', 'B SR', 'Δ SR', 'A PSR', 'B PSR', 'Δ PSR', 'A blocked', 'B blocked', 'Δ blocked', 'A violated', 'B violated'].map((text) => h('th', {}, text)))),
      h('tbody', {}, ...rows.map((row) => h('tr', { 'data-task': row.task_id },
        h('td', {}, row.task_id),
        h('td', { class: 'num' }, pct(row.a_pass)), h('td', { class: 'num' }, pct(row.b_pass)), delta(row.delta_pass),
        h('td', { class: 'num' }, pct(row.a_sr)), h('td', { class: 'num' }, pct(row.b_sr)), delta(row.delta_sr),
        h('td', { class: 'num' }, pct(row.a_psr)), h('td', { class: 'num' }, pct(row.b_psr)), delta(row.delta_psr),
        h('td', { class: 'num' }, num(row.a_blocked, 2)), h('td', { class: 'num' }, num(row.b_blocked, 2)), delta(row.delta_blocked, false),
        h('td', { class: 'num' }, num(row.a_violated, 2)), h('td', { class: 'num' }, num(row.b_violated, 2)),
      ))),
    ),
  ));;
}
