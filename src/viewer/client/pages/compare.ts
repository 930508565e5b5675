import * as Plot from '@observablehq/plot';
import { get, type Row } from '../api.ts';
import { basename, h, num, pct } from '../dom.ts';

function delta(value: unknown, percent = true): HTMLElement {
  if (typeof value !== 'number') return h('td', { class: 'num muted' }, '–');
  const text = percent ? `${value > 0 ? '+' : ''}${(100 * value).toFixed(1)} pts` : `${value > 0 ? '+' : ''}${value.toFixed(2)}`;
  return h('td', { class: `num ${value > 0 ? 'delta-pos' : value < 0 ? 'delta-neg' : ''}` }, text);
}

const HEADER = ['task', 'pairs', 'A pass', 'B pass', 'Δ pass', 'A SR', 'B SR', 'Δ SR', 'A PSR', 'B PSR', 'Δ PSR', 'A blocked', 'B blocked', 'Δ blocked', 'A violated', 'B violated', 'Δ violated'];

/**
 * Compare: run A (ticked first on the runs page) and run B per task, and A − B as `sandbox grade A --against B`
 * computes it: episodes paired by task and repeat, the means over the pairs and their difference (src/viewer/compare.ts).
 */
export async function comparePage(root: HTMLElement, [a = '', b = '']: string[]): Promise<void> {
  const [rows, { runs }] = await Promise.all([get<Row[]>('/api/compare', { a, b }), get<{ runs: Row[] }>('/api/runs')]);
  const runA = runs.find((run) => run.run_dir === a);
  const runB = runs.find((run) => run.run_dir === b);
  const label = (run: Row | undefined, dir: string) => (run ? `${run.name} (${run.model ?? '?'}, ${run.enforcement ?? '?'})` : basename(dir));
  const tasks = rows.filter((row) => row.task_id !== null);
  const all = rows.find((row) => row.task_id === null);
  const deltas = tasks.filter((row) => typeof row.delta_pass === 'number');
  root.append(h('div', {},
    h('h1', {}, 'Compare: A − B'),
    h('p', { id: 'compare-runs' },
      h('strong', {}, 'A: '), h('a', { id: 'run-a', href: `#/run/${encodeURIComponent(a)}` }, label(runA, a)), ' · ',
      h('strong', {}, 'B: '), h('a', { id: 'run-b', href: `#/run/${encodeURIComponent(b)}` }, label(runB, b)), ' · ',
      h('a', { href: `#/compare/${encodeURIComponent(b)}/${encodeURIComponent(a)}`, id: 'swap' }, 'swap A and B')),
    h('p', { class: 'muted' }, `A is the run ticked first. Episodes are paired by task and repeat (${all?.paired ?? 0} pairs) and each difference is A − B over the pairs, as \`sandbox grade A --against B\` computes it; a task without pairs shows each run's own mean and no difference.`),
    deltas.length > 0 ? h('figure', { class: 'plot', 'data-plot': 'compare' }, h('figcaption', {}, 'Pass rate difference per task (A − B, over paired episodes)'), Plot.plot({
      width: 640, height: 60 + 20 * deltas.length, marginLeft: 160, x: { label: 'A − B', domain: [-1, 1], grid: true }, y: { label: null },
      marks: [Plot.barX(deltas, { y: 'task_id', x: 'delta_pass', fill: (d: Row) => (d.delta_pass >= 0 ? '#16a34a' : '#dc2626'), tip: true }), Plot.ruleX([0])],
    })) : null,
    h('table', { id: 'compare-table' },
      h('thead', {}, h('tr', {}, ...HEADER.map((text) => h('th', {}, text)))),
      h('tbody', {}, ...[...tasks, ...(all ? [all] : [])].map((row) => h('tr', { 'data-task': row.task_id ?? 'all' },
        h('td', {}, row.task_id === null ? h('strong', {}, 'all tasks') : row.task_id),
        h('td', { class: 'num', title: `${row.a_episodes} episodes in A, ${row.b_episodes} in B` }, num(row.paired)),
        h('td', { class: 'num' }, pct(row.a_pass)), h('td', { class: 'num' }, pct(row.b_pass)), delta(row.delta_pass),
        h('td', { class: 'num' }, pct(row.a_sr)), h('td', { class: 'num' }, pct(row.b_sr)), delta(row.delta_sr),
        h('td', { class: 'num' }, pct(row.a_psr)), h('td', { class: 'num' }, pct(row.b_psr)), delta(row.delta_psr),
        h('td', { class: 'num' }, num(row.a_blocked, 2)), h('td', { class: 'num' }, num(row.b_blocked, 2)), delta(row.delta_blocked, false),
        h('td', { class: 'num' }, num(row.a_violated, 2)), h('td', { class: 'num' }, num(row.b_violated, 2)), delta(row.delta_violated, false),
      ))),
    ),
  ));
}
