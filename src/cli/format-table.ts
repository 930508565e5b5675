import type { SummaryTable } from '../schemas/score.ts';
import { fitColumns } from './fit-columns.ts';

/**
 * A summary table as aligned plain text (title, header, rule, rows). With `width` (the terminal's columns) a wider
 * table is fitted into it (fit-columns.ts); without, or when it fits, every cell is whole. The width is an option
 * object, not a second number: `tables.map(formatTable)` handed each table its index as a width, so `sandbox run` and
 * `grade` printed every table after the first in one-column panels.
 */
export function formatTable(table: SummaryTable, options: { width?: number } = {}): string {
  const { width } = options;
  const cells = [table.columns, ...table.rows.map((row) => row.map((cell) => (typeof cell === 'number' && !Number.isInteger(cell) ? cell.toFixed(3) : String(cell))))];
  const widths = table.columns.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const natural = widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.length - 1);
  if (width !== undefined && natural > width) {
    const numeric = table.columns.map((_, column) => table.rows.every((row) => typeof row[column] === 'number' || /^(-|[-+]?\d+(\.\d+)?(e[-+]?\d+)?)$/.test(String(row[column]))));
    return [table.title, ...fitColumns(table.columns, cells.slice(1).map((row) => table.columns.map((_, column) => row[column] ?? '')), numeric, width)].join('\n');
  }
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [table.title, line(cells[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
