import { basename, h, pct, usd } from './dom.ts';
import { runPlots, type RunData } from './plots.ts';
import { reportTable } from './table.ts';
import type { Row } from './api.ts';

/** The self-contained HTML report (src/report/html.ts): the run's data is embedded as JSON; this draws it, offline. */
interface ReportPayload {
  detail: RunData & { unreadable: Row[] };
  reports: Array<{ name: string; title: string; columns: string[]; rows: Row[] }>;
  episodes: { columns: string[]; rows: Row[] };
  generatedAt: string;
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
  reportTable(payload.episodes, 'episodes'),
);
