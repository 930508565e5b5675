import type { Report } from '../results/reports.ts';
import type { RunReportData } from './collect.ts';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '–';
  const text = typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(4) : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function table(report: Report): string {
  if (report.rows.length === 0) return `## ${report.title}\n\nnothing to show\n`;
  return [
    `## ${report.title}`,
    '',
    `| ${report.columns.map(cell).join(' | ')} |`,
    `| ${report.columns.map(() => '---').join(' | ')} |`,
    ...report.rows.map((row) => `| ${report.columns.map((column) => cell(row[column])).join(' | ')} |`),
    '',
  ].join('\n');
}

/** The run's reports and episode table as Markdown. */
export function markdownReport(data: RunReportData): string {
  const run = data.detail.run as Record<string, unknown>;
  const head = `# ${String(run.name)}\n\nmodel ${cell(run.model)} · suite ${cell(run.suite)} · enforcement ${cell(run.enforcement)} · ${cell(run.episodes)} episodes (${cell(run.graded)} graded)\n`;
  return [head, ...data.reports.map(table), table(data.episodes)].join('\n');
}
