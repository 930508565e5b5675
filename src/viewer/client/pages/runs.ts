import { get, type Row } from '../api.ts';
import { go } from '../nav.ts';
import { h, num, pct, usd } from '../dom.ts';
import { searchBox } from '../search.ts';

const COLUMNS: Array<[string, string, (row: Row) => string, boolean?]> = [
  ['name', 'run', (row) => row.name],
  ['model', 'model', (row) => row.model ?? '–'],
  ['suite', 'suite', (row) => row.suite ?? '–'],
  ['enforcement', 'enforcement', (row) => row.enforcement ?? '–'],
  ['started_at', 'date', (row) => (row.started_at ? String(row.started_at).replace('T', ' ').slice(0, 19) : '–')],
  // a run the viewer is still indexing: how many of its episodes are read, and its scores not read yet said so
  ['episodes', 'episodes', (row) => `${row.indexing ? `${row.episodes} of ${row.episodes + row.indexing} read` : row.episodes}${row.running ? ` (${row.running} running)` : ''}`, true],
  ['pass_rate', 'pass', (row) => score(row, pct(row.pass_rate)), true],
  ['sr', 'SR', (row) => score(row, pct(row.sr)), true],
  ['psr', 'PSR', (row) => score(row, pct(row.psr)), true],
  ['accuracy', 'accuracy', (row) => score(row, pct(row.accuracy)), true],
  ['cost_usd', 'cost', (row) => usd(row.cost_usd), true],
  ['unreadable', 'unreadable', (row) => num(row.unreadable), true],
];

/** A score of a run, or that its scores (summary.json) are still being read. */
function score(row: Row, shown: string): string {
  return row.scores_pending ? 'reading…' : shown;
}

/**
 * The runs the server put in the page it served (`<script id="boot-runs">`), used once: the first paint needs no
 * request; later renders (live updates, navigation) ask the API.
 */
function bootRuns(): { runs: Row[] } | null {
  const boot = document.getElementById('boot-runs');
  if (!boot) return null;
  boot.remove();
  return JSON.parse(boot.textContent ?? 'null') as { runs: Row[] } | null;
}

/** Runs: every indexed run with its figures; filter, sort, pick two to compare (the first ticked is A, the second B). */
export async function runsPage(root: HTMLElement): Promise<void> {
  const { runs } = bootRuns() ?? (await get<{ runs: Row[] }>('/api/runs'));
  let sort = 'started_at';
  let descending = true;
  let filter = '';
  const selected: string[] = [];
  const body = h('tbody');
  const compare = h('button', { type: 'button', id: 'compare', disabled: true, onclick: () => go('compare', selected[0]!, selected[1]!) }, 'Compare A − B (A: ticked first)');
  const head = h('tr', {}, h('th', {}, ''), ...COLUMNS.map(([key, label, , numeric]) => h('th', { class: `sortable${numeric ? ' num' : ''}`, 'data-sort': key, onclick: () => {
    descending = sort === key ? !descending : true;
    sort = key;
    draw();
  } }, label)));

  function draw(): void {
    const needle = filter.toLowerCase();
    const shown = runs
      .filter((row) => !needle || [row.name, row.model, row.suite, row.enforcement].some((value) => String(value ?? '').toLowerCase().includes(needle)))
      .sort((a, b) => {
        const x = a[sort];
        const y = b[sort];
        const order = x === y ? 0 : x === null || x === undefined ? 1 : y === null || y === undefined ? -1 : x < y ? -1 : 1;
        return descending ? -order : order;
      });
    body.replaceChildren(...shown.map((row) => h('tr', { 'data-run': row.run_dir },
      h('td', {}, h('input', { type: 'checkbox', 'aria-label': `select ${row.name}`, checked: selected.includes(row.run_dir), onchange: (event: Event) => {
        const box = event.target as HTMLInputElement;
        if (box.checked) selected.push(row.run_dir);
        else selected.splice(selected.indexOf(row.run_dir), 1);
        while (selected.length > 2) selected.shift();
        compare.disabled = selected.length !== 2;
        draw();
      } }), selected.includes(row.run_dir) ? h('span', { class: 'badge pick', title: selected.indexOf(row.run_dir) === 0 ? 'ticked first: run A of the comparison' : 'ticked second: run B' }, selected.indexOf(row.run_dir) === 0 ? 'A' : 'B') : null),
      ...COLUMNS.map(([key, , format, numeric]) => h('td', { class: numeric ? 'num' : '' }, key === 'name' ? h('a', { href: `#/run/${encodeURIComponent(row.run_dir)}` }, format(row)) : format(row))),
    )));
  }
  draw();
  const left = runs.reduce((sum, row) => sum + (row.indexing ?? 0), 0);
  root.append(
    h('h1', {}, `Runs (${runs.length})`),
    ...(left > 0 || runs.some((row) => row.scores_pending)
      ? [h('p', { class: 'muted', id: 'indexing' }, `Indexing: ${left} episodes to read. The figures shown are over the episodes read so far; this page updates as they are read.`)]
      : []),
    searchBox(),
    h('div', { class: 'toolbar' }, h('input', { type: 'search', placeholder: 'filter by run, model, suite…', oninput: (event: Event) => {
      filter = (event.target as HTMLInputElement).value;
      draw();
    } }), compare),
    runs.length === 0 ? h('p', { class: 'muted' }, 'No runs found. Run `sandbox run --suite … --out runs/<name>` and they appear here.') : h('table', { id: 'runs' }, h('thead', {}, head), body),
  );
}
