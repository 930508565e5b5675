import { get, type Row } from './api.ts';
import { h } from './dom.ts';

/**
 * The runs page's search across every indexed episode (src/viewer/search.ts answers it from the results store):
 * free text found in any message, and `task:`, `tool:`, `violated:`, `status:`, `run:`. Each hit links to the
 * episode at the event that matched.
 */
export function searchBox(): HTMLElement {
  const results = h('div', { id: 'search-results' });
  const input = h('input', { type: 'search', id: 'search', size: 60, placeholder: 'search episodes: text in any message, task:ID tool:NAME violated:CATEGORY status:limit run:NAME' });
  let ticket = 0;
  const run = async () => {
    const mine = ++ticket;
    const q = input.value.trim();
    results.replaceChildren(q ? h('p', { class: 'muted' }, 'searching…') : '');
    if (!q) return;
    const found = await get<{ total: number; rows: Row[] }>('/api/search', { q });
    if (mine !== ticket) return;
    results.replaceChildren(h('div', {},
      h('p', { class: 'muted', id: 'search-total' }, `${found.total} episode${found.total === 1 ? '' : 's'} match${found.total === 1 ? 'es' : ''}${found.total > found.rows.length ? ` (the first ${found.rows.length} shown)` : ''}`),
      found.rows.length === 0 ? null : h('table', { id: 'search-table' },
        h('thead', {}, h('tr', {}, ...['run', 'episode', 'status', 'passed', 'first match'].map((label) => h('th', {}, label)))),
        h('tbody', {}, ...found.rows.map((row) => h('tr', { 'data-episode': row.episode_id },
          h('td', {}, row.run),
          h('td', {}, h('a', { href: `#/episode/${encodeURIComponent(row.episode_id)}${row.seq === null ? '' : `/${row.seq}`}` }, `${row.task_id}#${row.repeat}`)),
          h('td', {}, h('span', { class: `badge ${row.status}` }, row.status)),
          h('td', {}, row.passed === null ? '–' : row.passed ? 'yes' : 'no'),
          h('td', {}, row.seq === null ? '' : h('span', { class: 'muted' }, `#${row.seq} ${row.event ?? ''} `), row.snippet ?? ''))))),
    ));
  };
  const form = h('form', { class: 'toolbar', id: 'search-form', onsubmit: (event: Event) => {
    event.preventDefault();
    void run().catch((error: Error) => results.replaceChildren(h('div', { class: 'error-box' }, error.message)));
  } }, input, h('button', { type: 'submit' }, 'Search'));
  return h('div', {}, form, results);
}
