import type { Report } from '../results/reports.ts';
import { roundToUnit } from '../viewer/client/round-to-unit.ts';

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; NULL is an empty field. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A report as CSV: a header row, then one row per report row, numbers rounded to their column's unit. */
export function reportCsv(report: Report): string {
  const lines = [report.columns.map(field).join(',')];
  for (const row of report.rows) lines.push(report.columns.map((column) => field(roundToUnit(column, row[column]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
