import type { SummaryTable } from '../schemas/score.ts';

/** A summary table as aligned plain text (title, header, rule, rows). */
export function formatTable(table: SummaryTable): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map((cell) => (typeof cell === 'number' && !Number.isInteger(cell) ? cell.toFixed(3) : String(cell))))];
  const widths = table.columns.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [table.title, line(cells[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
