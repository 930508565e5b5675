import { h } from './dom.ts';
import { decimalsFor } from './round-to-unit.ts';
import type { Row } from './api.ts';

/** A report (columns and rows from the store) as a plain table; a value that is a node (a link) is shown as it is. */
export function reportTable(report: { columns: string[]; rows: Row[] } | undefined, id?: string): HTMLElement {
  if (!report || report.rows.length === 0) return h('p', { class: 'muted' }, 'nothing to show');
  return h('table', { id },
    h('thead', {}, h('tr', {}, ...report.columns.map((column) => h('th', {}, ...breakable(column))))),
    h('tbody', {}, ...report.rows.map((row) => h('tr', {}, ...report.columns.map((column) => {
      const value = row[column];
      if (value instanceof Node) return h('td', {}, value);
      return h('td', { class: typeof value === 'number' ? 'num' : '' }, value === null || value === undefined ? '–' : typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(decimalsFor(column)) : String(value));
    })))),
  );
}

/** A column name that may break after each underscore (`rejected_answers` → `rejected_` `answers`), so a table of long names fits the page. */
function breakable(name: string): Array<string | HTMLElement> {
  return name.split(/(?<=_)/).flatMap((part, index) => (index === 0 ? [part] : [h('wbr'), part]));
}
