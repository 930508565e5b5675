import { basename, h, pct, usd } from './dom.ts';
import { runPlots, type RunData } from './plots.ts';
import { reportTable } from './table.ts';
import type { Row } from './api.ts';

/** The self-contained HTML report (src/report/html.ts): the run's data is embedded as JSON; this draws it, offline. */
interface ReportPayload {
  detail: RunData & { unreadable: Row[] };
  reports: Array<{ name: string; title: string; columns: string[]; rows: Row[] }>;
  episodes: { columns: string[]; rows: Row[] };
  /** A static bundle's (src/report/bundle.ts): trajectory file name → its transcript page; null in a lone report. */
  episodeLinks: Record<string, string> | null;
  generatedAt: string;
}

/** The episode table as shown (the CSV keeps every column): one `episode` cell (linked in a bundle) and one `score`, so it fits 1,280 px. */
const SHOWN = ['episode', 'status', 'reason', 'group', 'score', 'sr', 'psr', 'accuracy', 'rounds', 'tool_calls', 'blocked_calls', 'rejected_answers',
  'input_tokens', 'output_tokens', 'cost_usd', 'duration_ms', 'grade_error', 'violated_categories'];

function episodeRows(rows: Row[], links: Record<string, string> | null): Row[] {
  return rows.map((row) => {
    const name = `${row.task_id}#${row.repeat}`;
    const href = links?.[row.file];
    return { ...row, episode: href ? h('a', { href, 'data-episode': row.file }, name) : name, score: row.graded ? (row.passed ? 'pass' : 'fail') : 'not graded' };
  });
}

const payload = JSON.parse(document.getElementById('report-data')!.textContent ?? '{}') as ReportPayload;
const run = payload.detail.run;
const root = document.getElementById('app')!;
root.append(
  h('h1', {}, run.name),
  h('p', { class: 'muted' }, `${run.model ?? 'unknown model'} · ${run.suite ?? 'no suite'} · ${run.enforcement ?? ''} · ${run.episodes} episodes (${run.graded} graded) · pass ${pct(run.pass_rate)} · SR ${pct(run.sr)} · PSR ${pct(run.psr)} · cost ${usd(run.cost_usd)} · report of ${payload.generatedAt}`),
  ...(payload.detail.unreadable.length > 0 ? [h('div', { class: 'error-box' }, `${payload.detail.unreadable.length} unreadable file(s): `, payload.detail.unreadable.map((row) => `${basename(row.path)} (${row.reason})`).join('; '))] : []),
  h('div', { class: 'plots' }, ...runPlots(payload.detail)),
  ...payload.reports.flatMap((report) => (report.rows.length > 0 ? [h('h2', {}, report.title), reportTable(report)] : [])),
  h('h2', {}, 'Episodes'),
  reportTable({ columns: SHOWN, rows: episodeRows(payload.episodes.rows, payload.episodeLinks) }, 'episodes'),
);
