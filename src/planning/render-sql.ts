import { dialectOf } from '../../mcp-servers/sql/backends/dialect.ts';
import type { CatalogColumn, SqlCatalog } from './sql-catalog.ts';
import type { Filter, FilterValue, StepFrame } from './step-frame.ts';

/** An upstream step's result as the renderer reads it: column names and rows. */
export interface UpstreamResult {
  columns: string[];
  rows: unknown[][];
}

export type RenderOutcome = { ok: true; sql: string } | { ok: false; reason: string };

const quote = (value: string): string => `'${value.replaceAll("'", "''")}'`;
const literal = (value: string | number): string => (typeof value === 'number' ? String(value) : quote(value));

/**
 * Renders a step's frame as one query in the catalog's dialect (DuckDB, SQLite or PostgreSQL) over its tables, with upstream values bound in: the measure's
 * table (or `calls`) is the base, a column of another table is reached through the one `_id` column they share, the
 * time column is the base table's first TIMESTAMP column. Says why when the catalog cannot serve the frame.
 */
export function renderSql(frame: StepFrame, catalog: SqlCatalog, upstream: ReadonlyMap<number, UpstreamResult>): RenderOutcome {
  const dialect = catalog.dialect ?? dialectOf('duckdb');
  const tableOf = (column: string): string[] => [...catalog.tables].filter(([, columns]) => columns.some((entry) => entry.name === column)).map(([table]) => table);
  const measureTable = frame.measure?.columns.length ? tableOf(frame.measure.columns[0]!)[0] : undefined;
  const momentsTable = frame.shape === 'moments' ? tableOf('moment')[0] : undefined;
  const base = momentsTable ?? measureTable ?? (frame.shape === 'attributes' ? undefined : mainTable(catalog));
  const entityFilter = frame.filters.find((filter) => filter.value?.kind === 'step' && filter.op === '=');
  const attributeBase = frame.shape === 'attributes' && entityFilter ? tableOf(entityFilter.column).find((table) => frame.attributes!.every((column) => tableOf(column).includes(table))) : undefined;
  const from = base ?? attributeBase;
  if (!from) return { ok: false, reason: 'cannot translate: no table holds what the step asks for' };

  const joins = new Map<string, string>();
  const timeColumn = (table: string): CatalogColumn | undefined => catalog.tables.get(table)!.find((column) => /TIMESTAMP|DATE/.test(column.type));
  let timeTable = from;
  if (!timeColumn(from)) {
    const other = [...catalog.tables.keys()].find((table) => timeColumn(table) && joinKey(catalog, from, table));
    if (other) timeTable = other;
  }
  /** Qualifies a column: the base table's own, else a joined table's (joined on the `_id` column they share). */
  const qualify = (column: string): string | null => {
    if (column === 'time' || column === 'day') {
      const time = timeColumn(timeTable);
      if (!time) return null;
      if (timeTable !== from && !join(timeTable)) return null;
      return column === 'day' ? dialect.day(`${timeTable}.${time.name}`) : `${timeTable}.${time.name}`;
    }
    if (column === 'weekday') {
      const time = timeColumn(timeTable);
      if (!time || (timeTable !== from && !join(timeTable))) return null;
      return dialect.dayName(`${timeTable}.${time.name}`);
    }
    const tables = tableOf(column);
    if (tables.includes(from)) return `${from}.${column}`;
    for (const table of tables) if (join(table)) return `${table}.${column}`;
    return null;
  };
  const join = (table: string): boolean => {
    if (table === from || joins.has(table)) return true;
    const key = joinKey(catalog, from, table);
    if (!key) return false;
    joins.set(table, `JOIN ${table} USING (${key})`);
    return true;
  };

  const bound = (value: FilterValue | undefined, column: string): { ok: true; sql: string } | { ok: false; reason: string } => {
    if (!value) return { ok: true, sql: '' };
    if (value.kind === 'literal') return { ok: true, sql: literal(value.value) };
    const result = upstream.get(value.step);
    if (!result) return { ok: false, reason: `cannot translate: step ${value.step} is not one this step depends on` };
    const index = Math.max(0, result.columns.indexOf(column === 'day' || column === 'time' ? result.columns[0]! : column));
    const values = result.rows.map((row) => row[index]).filter((cell) => cell !== null && cell !== undefined);
    if (values.length === 0) return { ok: false, reason: `cannot run: step ${value.step} found no ${column === 'call_id' ? 'calls' : column.replaceAll('_', ' ')} to narrow to` };
    if (value.kind === 'step-list') return { ok: true, sql: `(${[...new Set(values.map(String))].map(quote).join(', ')})` };
    const first = values[0]!;
    return { ok: true, sql: typeof first === 'number' ? String(first) : quote(String(first)) };
  };

  const predicate = (filter: Filter): { ok: true; sql: string } | { ok: false; reason: string } => {
    const column = qualify(filter.column);
    if (!column) return { ok: false, reason: `cannot translate: no table joined to ${from} has the column ${filter.column}` };
    const value = bound(filter.value, filter.column);
    if (!value.ok) return value;
    switch (filter.op) {
      case 'true': return { ok: true, sql: column };
      case 'false': return { ok: true, sql: `NOT ${column}` };
      case 'in': return { ok: true, sql: `${column} IN ${value.sql}` };
      case 'between':
      case 'not-between': {
        const day = dialect.toDate(value.sql);
        return { ok: true, sql: `${column} ${filter.op === 'between' ? 'BETWEEN' : 'NOT BETWEEN'} ${day} AND ${dialect.addDays(day, filter.span ?? 0)}` };
      }
      default: {
        if (filter.column === 'time' && filter.value?.kind === 'literal') {
          const [date, plus] = String(filter.value.value).split(' ');
          return { ok: true, sql: `${column} ${filter.op} ${dialect.timestampLiteral(date!, plus ? 1 : 0)}` };
        }
        return { ok: true, sql: `${column} ${filter.op} ${value.sql}` };
      }
    }
  };
  const predicates = (list: readonly Filter[]): { ok: true; sql: string[] } | { ok: false; reason: string } => {
    const sql: string[] = [];
    for (const filter of list) {
      const rendered = predicate(filter);
      if (!rendered.ok) return rendered;
      sql.push(rendered.sql);
    }
    return { ok: true, sql };
  };

  const measure = frame.measure
    ? (() => {
        const table = measureTable ?? from;
        const time = timeColumn(timeTable);
        if (frame.measure.usesTime && (!time || !join(timeTable))) return null;
        return frame.measure.expression(dialect, table, time ? `${timeTable}.${time.name}` : '');
      })()
    : undefined;
  if (measure === null) return { ok: false, reason: 'cannot translate: the measure needs a time column the tables lack' };
  const where = predicates(frame.filters);
  if (!where.ok) return where;
  const group = frame.group ? qualify(frame.group) : undefined;
  if (frame.group && !group) return { ok: false, reason: `cannot translate: no table joined to ${from} has the column ${frame.group}` };
  const groupName = frame.group === 'weekday' ? 'day_name' : frame.group === 'day' ? 'day' : frame.group;
  const whereSql = (extra: string[] = []) => {
    const all = [...where.sql, ...extra];
    return all.length > 0 ? ` WHERE ${all.join(' AND ')}` : '';
  };
  const fromSql = () => `FROM ${from}${[...joins.values()].map((entry) => ` ${entry}`).join('')}`;
  const measureName = frame.measure?.name ?? 'calls';
  const measureSql = measure ? dialect.round(measure, 4) : 'count(*)';

  switch (frame.shape) {
    case 'ids': {
      const id = qualify('call_id');
      if (!id) return { ok: false, reason: 'cannot translate: the tables have no call_id' };
      return { ok: true, sql: `SELECT DISTINCT ${id} ${fromSql()}${whereSql()} ORDER BY ${id}` };
    }
    case 'moments': {
      const moment = qualify('moment');
      const id = qualify('call_id');
      if (!moment || !id) return { ok: false, reason: 'cannot translate: the tables have no key moments' };
      return { ok: true, sql: `SELECT ${moment}, count(DISTINCT ${id}) AS calls ${fromSql()}${whereSql()} GROUP BY ${moment} ORDER BY calls DESC, ${moment}` };
    }
    case 'spike': {
      const day = qualify('day');
      if (!day) return { ok: false, reason: 'cannot translate: the tables have no time column' };
      return {
        ok: true,
        sql: `WITH per_day AS (SELECT ${day} AS day, count(*) AS n ${fromSql()}${whereSql()} GROUP BY 1) SELECT ${dialect.dayText('min(day)')} AS spike_start FROM per_day WHERE n >= ${frame.factor ?? 4} * ${dialect.medianOver('n', 'per_day')}`,
      };
    }
    case 'attributes': {
      const key = entityFilter ? qualify(entityFilter.column) : null;
      if (!key) return { ok: false, reason: 'cannot translate: the step does not say whose attributes to return' };
      const columns = [entityFilter!.column, ...frame.attributes!.filter((column) => column !== entityFilter!.column)].map((column) => qualify(column) ?? column);
      return { ok: true, sql: `SELECT ${columns.join(', ')} ${fromSql()}${whereSql()}` };
    }
    case 'count-by':
      return { ok: true, sql: `SELECT ${group} AS ${groupName}, count(*) AS calls ${fromSql()}${whereSql()} GROUP BY 1 ORDER BY calls DESC, 1` };
    case 'aggregate':
      return { ok: true, sql: `SELECT ${measureSql} AS ${measureName}, count(*) AS calls ${fromSql()}${whereSql()}` };
    case 'top': {
      const having = frame.minCount !== undefined ? ` HAVING count(*) >= ${frame.minCount}` : '';
      const order = frame.direction === 'lowest' ? 'ASC' : 'DESC';
      return { ok: true, sql: `SELECT ${group} AS ${groupName}, ${measureSql} AS ${measureName}, count(*) AS calls ${fromSql()}${whereSql()} GROUP BY 1${having} ORDER BY 2 ${order} NULLS LAST, 1 LIMIT ${frame.limit ?? 1}` };
    }
    case 'change': {
      if (!measure || !frame.pivot) return { ok: false, reason: 'cannot translate: a change needs a measure and a date to compare before and after' };
      const time = qualify('time');
      if (!time) return { ok: false, reason: 'cannot translate: the tables have no time column' };
      const pivot = dialect.timestampLiteral(frame.pivot);
      const inner = measure.replace(/^avg\((.*)\)$/, '$1');
      const change = dialect.round(`avg(${inner}) FILTER (WHERE ${time} >= ${pivot}) - avg(${inner}) FILTER (WHERE ${time} < ${pivot})`, 4);
      const order = frame.direction === 'highest' ? 'DESC' : 'ASC';
      const limit = frame.direction || frame.limit ? ` LIMIT ${frame.limit ?? 1}` : '';
      if (!group) return { ok: true, sql: `SELECT ${change} AS ${measureName}_change, count(*) AS rows ${fromSql()}${whereSql()}` };
      return { ok: true, sql: `SELECT ${group} AS ${groupName}, ${change} AS ${measureName}_change ${fromSql()}${whereSql()} GROUP BY 1 ORDER BY 2 ${order} NULLS LAST, 1${limit}` };
    }
    case 'compare': {
      const condition = predicates(frame.condition ?? []);
      if (!condition.ok) return condition;
      if (condition.sql.length === 0) return { ok: false, reason: 'cannot translate: the comparison does not say what sets one side apart from the other' };
      const other = predicates(frame.otherCondition ?? []);
      if (!other.ok) return other;
      if (other.sql.length > 0) {
        const side = `CASE WHEN ${condition.sql.join(' AND ')} THEN 'first' ELSE 'second' END`;
        return { ok: true, sql: `SELECT ${side} AS side, ${measureSql} AS ${measureName}, count(*) AS calls ${fromSql()}${whereSql([`((${condition.sql.join(' AND ')}) OR (${other.sql.join(' AND ')}))`])} GROUP BY 1 ORDER BY 1` };
      }
      return { ok: true, sql: `SELECT (${condition.sql.join(' AND ')}) AS in_group, ${measureSql} AS ${measureName}, count(*) AS calls ${fromSql()}${whereSql()} GROUP BY 1 ORDER BY 1` };
    }
  }
}

/** The table most others join to: the one whose `_id` columns reach the most tables (the fact table; `calls` here). */
function mainTable(catalog: SqlCatalog): string | undefined {
  let best: { table: string; reach: number } | undefined;
  for (const table of catalog.tables.keys()) {
    const reach = [...catalog.tables.keys()].filter((other) => other !== table && joinKey(catalog, table, other)).length;
    const rows = catalog.tables.get(table)!.some((column) => /TIMESTAMP/.test(column.type)) ? 0.5 : 0;
    if (!best || reach + rows > best.reach) best = { table, reach: reach + rows };
  }
  return best?.table;
}

/**
 * The column two tables join on: an `_id` column both have that is the key of one of them (its first column) — so
 * calls joins agents on agent_id, and qa_evaluations joins calls on call_id, never on a shared non-key column.
 */
function joinKey(catalog: SqlCatalog, left: string, right: string): string | undefined {
  const leftColumns = catalog.tables.get(left)!;
  const rightColumns = catalog.tables.get(right)!;
  const shared = leftColumns.filter((column) => column.name.endsWith('_id') && rightColumns.some((other) => other.name === column.name));
  const keyed = shared.find((column) => leftColumns[0]!.name === column.name || rightColumns[0]!.name === column.name);
  return keyed?.name;
}
