import { h } from './dom.ts';
import type { Row } from './api.ts';

/** A report (columns and rows from the store) as a plain table. */
export function reportTable(report: { columns: string[]; rows: Row[] } | undefined, id?: string): HTMLElement {
  if (!report || report.rows.length === 0) return h('p', { class: 'muted' }, 'nothing to show');
  return h('table', { id },
    h('thead', {}, h('tr', {}, ...report.columns.map((column) => h('th', {}, column)))),
    h('tbody', {}, ...report.rows.map((row) => h('tr', {}, ...report.columns.map((column) => {
      const value = row[column];
      return h('td', { class: typeof value === 'number' ? 'num' : '' }, value === null || value === undefined ? '–' : typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(4) : String(value));
    })))),
  );
}
