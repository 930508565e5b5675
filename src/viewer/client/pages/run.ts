import { get, type Row } from '../api.ts';
import { basename, h, num, pct, usd } from '../dom.ts';
import { runPlots, type RunData } from '../plots.ts';
import { reportTable } from '../table.ts';

const PAGE = 100;

/** Run: its plots, reports and the episode table (filtered and paged by the server). */
export async function runPage(root: HTMLElement, [runDir = '']: string[]): Promise<void> {
  const data = await get<RunData & { found: boolean; violatedCategories: string[]; unreadable: Row[] }>('/api/run', { dir: runDir });
  if (!data.found) {
    root.append(h('div', { class: 'error-box' }, `No run ${runDir} in the results store.`));
    return;
  }
  const run = data.run;
  const filters = { failed: false, status: '', category: '', sort: 'task', offset: 0 };
  const table = h('div', { id: 'episodes' });
  const pager = h('div', { class: 'toolbar' });

  async function load(): Promise<void> {
    const page = await get<{ total: number; rows: Row[] }>('/api/episodes', { dir: runDir, ...filters, limit: PAGE });
    table.replaceChildren(h('table', {},
      h('thead', {}, h('tr', {}, ...['episode', 'status', 'group', 'score', 'SR', 'PSR', 'accuracy', 'rounds', 'tool calls', 'blocked', 'rejected', 'cost', 'ms'].map((label) => h('th', {}, label)))),
      h('tbody', {}, ...page.rows.map((row) => h('tr', { 'data-episode': row.episode_id },
        h('td', {}, h('a', { href: `#/episode/${encodeURIComponent(row.episode_id)}` }, `${row.task_id ?? basename(row.file)}#${row.repeat}`), row.truncated ? h('span', { class: 'badge soft-satisfied', title: 'the last line was cut off' }, 'truncated') : null),
        h('td', {}, h('span', { class: `badge ${row.status}` }, row.status), row.reason ? h('span', { class: 'muted' }, ` ${row.reason}`) : null),
        h('td', {}, row.group ?? '–'),
        h('td', {}, row.graded ? h('span', { class: row.passed ? 'pass' : 'fail' }, row.passed ? 'pass' : 'fail') : h('span', { class: 'muted', title: row.grade_error ?? 'no summary.json score yet' }, 'not graded')),
        h('td', { class: 'num' }, pct(row.sr)), h('td', { class: 'num' }, pct(row.psr)), h('td', { class: 'num' }, pct(row.accuracy)),
        h('td', { class: 'num' }, num(row.rounds)), h('td', { class: 'num' }, num(row.tool_calls)), h('td', { class: 'num' }, num(row.blocked_calls)),
        h('td', { class: 'num' }, num(row.rejected_answers)), h('td', { class: 'num' }, usd(row.cost_usd)), h('td', { class: 'num' }, num(row.duration_ms)),
      ))),
    ));
    const last = Math.min(page.total, filters.offset + PAGE);
    pager.replaceChildren(
      h('span', {}, `${page.total === 0 ? 0 : filters.offset + 1}–${last} of ${page.total}`),
      h('button', { type: 'button', disabled: filters.offset === 0, onclick: () => { filters.offset = Math.max(0, filters.offset - PAGE); void load(); } }, '← previous'),
      h('button', { type: 'button', disabled: last >= page.total, onclick: () => { filters.offset += PAGE; void load(); } }, 'next →'),
    );
  }

  const change = (key: 'status' | 'category' | 'sort') => (event: Event) => {
    filters[key] = (event.target as HTMLSelectElement).value;
    filters.offset = 0;
    void load();
  };
  const select = (key: 'status' | 'category' | 'sort', label: string, options: string[]) =>
    h('label', {}, `${label} `, h('select', { name: key, onchange: change(key) }, ...options.map((value) => h('option', { value }, value || 'any'))));

  root.append(h('div', {},
    h('h1', {}, run.name),
    h('p', { class: 'muted' }, `${run.model ?? 'unknown model'} · ${run.suite ?? 'no suite'} · ${run.enforcement ?? ''} · ${run.episodes} episodes (${run.graded} graded) · pass ${pct(run.pass_rate)} · cost ${usd(run.cost_usd)}${run.judge ? ` · judge ${run.judge}` : ''}`),
    data.unreadable.length > 0 ? h('div', { class: 'error-box', id: 'unreadable' }, h('strong', {}, `${data.unreadable.length} unreadable file(s)`), h('ul', {}, ...data.unreadable.map((row) => h('li', {}, `${basename(row.path)}: ${row.reason}`)))) : null,
    h('div', { class: 'plots' }, ...runPlots(data)),
    h('h2', {}, 'Episodes'),
    h('div', { class: 'toolbar' },
      h('label', {}, h('input', { type: 'checkbox', name: 'failed', onchange: (event: Event) => { filters.failed = (event.target as HTMLInputElement).checked; filters.offset = 0; void load(); } }), ' failed only'),
      select('status', 'status', ['', 'completed', 'limit', 'error', 'running']),
      select('category', 'violated', ['', ...data.violatedCategories]),
      select('sort', 'sort', ['task', 'status', 'passed', 'rounds', 'duration']),
    ),
    table,
    pager,
    h('h2', {}, 'Leaderboard'), reportTable(data.reports.leaderboard),
    h('h2', {}, 'pass^k / pass@k'), reportTable(data.reports.pass_k), reportTable(data.reports.flip_rate),
    h('h2', {}, 'Violations per category'), reportTable(data.reports.violations, 'violations-table'),
    h('h2', {}, 'Cost ledger'), reportTable(data.reports.cost),
  ));;
  await load();
}
