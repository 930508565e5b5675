import type { SqlDialect } from './dialect.ts';
import type { QueryRows } from './read-catalog.ts';
import type { Catalog } from './types.ts';

/** A column of a table, as the catalog lists it. */
export interface CatalogColumn {
  name: string;
  type: string;
}

/** A join from a referencing column to a referenced key: `from.column` → `to.column` (trips.origin_id → places.id). */
export interface JoinColumn {
  fromTable: string;
  fromColumn: string;
  toTable: string;
  toColumn: string;
  /** Declared as a FOREIGN KEY, found by names and value overlap, or by values alone (every value is a key's). */
  how: 'declared' | 'values' | 'contained';
}

/**
 * SQL spelling shared by the explorer and `ddr scaffold` on every engine: an identifier, a string literal, and the
 * catalog's type families — DuckDB's type names (SQLite files built by `db build` declare them too) and
 * PostgreSQL's (`double precision`, `numeric`, `character varying`, `timestamp without time zone`).
 */
export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
export const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|FLOAT|DOUBLE|DOUBLE PRECISION|REAL|DECIMAL.*|NUMERIC.*|U?(TINY|SMALL|BIG)?INT.*)$/i;
export const TEMPORAL = /^(DATE|TIMESTAMP.*)$/i;
/** Text and boolean columns: the ones whose few distinct values can be categories. */
export const CATEGORICAL = /^(VARCHAR|TEXT|CHARACTER VARYING|BOOLEAN)$/i;
/** Text columns. */
export const TEXTUAL = /^(VARCHAR|TEXT|CHARACTER VARYING)$/i;
/** A column or table name in words ("discharge_date" → "discharge date"). */
export const words = (name: string) => name.replaceAll('_', ' ');
// Lists, structs and maps are their own family (BIGINT[] is not an integer id).
const family = (type: string) => (/\[|STRUCT|MAP|UNION/i.test(type) ? type.toUpperCase() : /CHAR|TEXT|STRING|UUID/i.test(type) ? 'text' : /INT|DECIMAL|NUMERIC/i.test(type) ? 'integer' : type.toUpperCase());
export const singular = (name: string) => name.toLowerCase().replace(/(ies)$/, 'y').replace(/(ses|xes)$/, (suffix) => suffix.slice(0, -2)).replace(/s$/, '');

/**
 * The key column of each table: its declared primary key (or single-column unique key), else a column named `id`,
 * else `<table in the singular>_id` (agents → agent_id).
 */
export function tableKeys(schema: ReadonlyMap<string, readonly CatalogColumn[]>, declared: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [table, columns] of schema) {
    const names = columns.map((column) => column.name);
    const key = declared.get(table) ?? names.find((name) => name.toLowerCase() === 'id') ?? names.find((name) => name.toLowerCase() === `${singular(table)}_id`);
    if (key) keys.set(table, key);
  }
  return keys;
}

/**
 * Join candidates by name: a column of one table that names another table's key — the same name (calls.agent_id →
 * agents.agent_id), or any `…_id` column against a key named `id` (trips.origin_id → places.id) — with a compatible
 * type. Candidates still need their values checked (`overlapSql`).
 */
export function nameCandidates(schema: ReadonlyMap<string, readonly CatalogColumn[]>, keys: ReadonlyMap<string, string>): JoinColumn[] {
  const candidates: JoinColumn[] = [];
  for (const [fromTable, columns] of schema) {
    for (const column of columns) {
      const name = column.name.toLowerCase();
      if (keys.get(fromTable) === column.name) continue;
      for (const [toTable, key] of keys) {
        if (toTable === fromTable) continue;
        const keyType = schema.get(toTable)?.find((candidate) => candidate.name === key)?.type ?? '';
        if (family(keyType) !== family(column.type)) continue;
        const lowerKey = key.toLowerCase();
        if (name === lowerKey || (lowerKey === 'id' && name.endsWith('_id')) || (lowerKey.endsWith('_id') && name.endsWith(`_${lowerKey}`))) {
          candidates.push({ fromTable, fromColumn: column.name, toTable, toColumn: key, how: 'values' });
        }
      }
    }
  }
  return candidates;
}

/** Type families a value-only join may have: text or integer ids, never measurements. */
const ID_FAMILIES = new Set(['text', 'integer']);
/** At most this many value-only candidates are measured (the widest tables first would otherwise dominate). */
const MAX_CONTAINED = 200;
/** The share of a key's values a reference by values alone must use. */
const MIN_COVERAGE = 0.1;

/**
 * Join candidates by values alone, where neither a key nor a name says so (trips.start_station → stations.station_id):
 * every text or integer column that is not its table's key, against every other table's key of the same family, not
 * already a candidate. They are confirmed only when every sampled value is in the key (`confirmedJoins`).
 */
export function containmentCandidates(schema: ReadonlyMap<string, readonly CatalogColumn[]>, keys: ReadonlyMap<string, string>, existing: readonly JoinColumn[]): JoinColumn[] {
  const candidates: JoinColumn[] = [];
  for (const [fromTable, columns] of schema) {
    for (const column of columns) {
      if (keys.get(fromTable) === column.name || !ID_FAMILIES.has(family(column.type))) continue;
      for (const [toTable, key] of keys) {
        if (toTable === fromTable || family(schema.get(toTable)?.find((candidate) => candidate.name === key)?.type ?? '') !== family(column.type)) continue;
        if (existing.some((join) => join.fromTable === fromTable && join.fromColumn === column.name)) continue;
        if (candidates.length < MAX_CONTAINED) candidates.push({ fromTable, fromColumn: column.name, toTable, toColumn: key, how: 'contained' });
      }
    }
  }
  return candidates;
}

/**
 * For the tables without a key by declaration or name: one query listing their columns whose values are all present
 * and distinct (\`table_name\`, \`column_name\`), text or integer; null when every table has a key.
 */
export function uniqueColumnsSql(schema: ReadonlyMap<string, readonly CatalogColumn[]>, keys: ReadonlyMap<string, string>): string | null {
  const parts: string[] = [];
  for (const [table, columns] of schema) {
    if (keys.has(table)) continue;
    for (const column of columns.filter((candidate) => ID_FAMILIES.has(family(candidate.type)))) {
      // Counted in a subquery: SQLite takes HAVING only on a query whose select list aggregates.
      const counts = `SELECT count(DISTINCT ${quote(column.name)}) AS d, count(${quote(column.name)}) AS p, count(*) AS n FROM ${quote(table)}`;
      parts.push(`SELECT ${literal(table)} AS table_name, ${literal(column.name)} AS column_name FROM (${counts}) AS c WHERE d = n AND p = n AND n > 1`);
    }
  }
  return parts.length === 0 ? null : parts.join(' UNION ALL ');
}

/** The keys, with the first all-distinct column (uniqueColumnsSql's rows, in column order) of each table that had none. */
export function withUniqueKeys(schema: ReadonlyMap<string, readonly CatalogColumn[]>, keys: ReadonlyMap<string, string>, rows: ReadonlyArray<Record<string, unknown>>): Map<string, string> {
  const result = new Map(keys);
  for (const [table, columns] of schema) {
    if (result.has(table)) continue;
    const unique = columns.find((column) => rows.some((row) => row.table_name === table && row.column_name === column.name));
    if (unique) result.set(table, unique.name);
  }
  return result;
}

/**
 * One query measuring, per candidate, the share of the referencing column's distinct values (a sample of up to
 * 500) found in the referenced key: `pair` (its index) and `overlap` (0..1); for a candidate by values alone also
 * `coverage`, its distinct values over the key's (approximate counts).
 */
export function overlapSql(candidates: readonly JoinColumn[], dialect: SqlDialect): string {
  return candidates
    .map((candidate, index) => {
      const sample = `(SELECT DISTINCT ${quote(candidate.fromColumn)} AS v FROM ${quote(candidate.fromTable)} WHERE ${quote(candidate.fromColumn)} IS NOT NULL LIMIT 500)`;
      const distinct = (table: string, column: string) => `(SELECT ${dialect.approxCountDistinct(quote(column))} FROM ${quote(table)})`;
      const coverage = `${dialect.double(distinct(candidate.fromTable, candidate.fromColumn))} / ${dialect.greatest('1', distinct(candidate.toTable, candidate.toColumn))}`;
      const found = `(SELECT count(*) FROM ${sample} s WHERE s.v IN (SELECT ${quote(candidate.toColumn)} FROM ${quote(candidate.toTable)}))`;
      return `SELECT ${index} AS pair, ${dialect.double(found)} / ${dialect.greatest('1', `(SELECT count(*) FROM ${sample} AS n)`)} AS overlap, ${candidate.how === 'contained' ? coverage : '1.0'} AS coverage`;
    })
    .join(' UNION ALL ');
}

/**
 * The candidates whose values mostly (≥ 80 %) exist in the referenced key; a candidate by values alone needs all of
 * them and to use at least a tenth of the key's values, and is kept only for its first confirmed key (one reference
 * per column).
 */
export function confirmedJoins(candidates: readonly JoinColumn[], rows: ReadonlyArray<Record<string, unknown>>, threshold = 0.8): JoinColumn[] {
  const overlap = new Map(rows.map((row) => [Number(row.pair), Number(row.overlap)]));
  const coverage = new Map(rows.map((row) => [Number(row.pair), Number(row.coverage ?? 1)]));
  const confirmed = candidates.filter((candidate, index) => {
    if (candidate.how !== 'contained') return (overlap.get(index) ?? 0) >= threshold;
    // Small integers are in any sequence of ids (stations.docks in trips.trip_id): a reference by values alone must
    // also use a tenth of the key's values.
    return (overlap.get(index) ?? 0) >= 1 && (coverage.get(index) ?? 0) >= MIN_COVERAGE;
  });
  return confirmed.filter((candidate) => candidate.how !== 'contained' || confirmed.find((other) => other.fromTable === candidate.fromTable && other.fromColumn === candidate.fromColumn) === candidate);
}

/** Declared foreign keys from the rows of the dialect's `keysSql`, and the declared keys per table. */
export function declaredKeys(rows: ReadonlyArray<Record<string, unknown>>): { joins: JoinColumn[]; keys: Map<string, string> } {
  const joins: JoinColumn[] = [];
  const keys = new Map<string, string>();
  for (const row of rows) {
    const table = String(row.table_name);
    const column = String(row.column_name);
    if (row.kind === 'FOREIGN KEY' && row.referenced_table) {
      joins.push({ fromTable: table, fromColumn: column, toTable: String(row.referenced_table), toColumn: String(row.referenced_column), how: 'declared' });
    } else if (row.kind === 'PRIMARY KEY' || (row.kind === 'UNIQUE' && !keys.has(table))) {
      keys.set(table, column);
    }
  }
  return { joins, keys };
}

/** Declared joins first, then confirmed name candidates not already declared. */
export function mergeJoins(declared: readonly JoinColumn[], found: readonly JoinColumn[]): JoinColumn[] {
  const same = (a: JoinColumn, b: JoinColumn) => a.fromTable === b.fromTable && a.fromColumn === b.fromColumn && a.toTable === b.toTable;
  return [...declared, ...found.filter((join) => !declared.some((existing) => same(existing, join)))];
}

/** Where rows about one entity are: a table and the condition selecting them (a join through a key when needed). */
export interface EntityScope {
  /** The table whose columns are profiled (aliased `t`). */
  table: string;
  /** FROM clause (the table as `t`, joined to the table that holds the id when the rows are two hops away). */
  from: string;
  where: string;
  /** How the rows relate to the entity, in words ("trips by origin_id"). */
  via: string;
}

/**
 * The tables holding rows about an entity whose id is in `key.table.key.column`: that table itself, every table
 * whose column references that key (one hop), the tables those rows reference (over those rows), and every table
 * referencing the primary key of a one-hop table (two hops, through a join).
 */
export function entityScopes(key: { table: string; column: string }, entityId: string, joins: readonly JoinColumn[], keys: ReadonlyMap<string, string>): EntityScope[] {
  const id = literal(entityId);
  const scopes: EntityScope[] = [{ table: key.table, from: `${quote(key.table)} AS t`, where: `t.${quote(key.column)} = ${id}`, via: `${key.table} by ${key.column}` }];
  const oneHop = joins.filter((join) => join.toTable === key.table && join.toColumn === key.column && join.fromTable !== key.table);
  for (const join of oneHop) {
    scopes.push({ table: join.fromTable, from: `${quote(join.fromTable)} AS t`, where: `t.${quote(join.fromColumn)} = ${id}`, via: `${join.fromTable} by ${join.fromColumn}` });
  }
  // The tables one-hop rows reference (an agent's calls → their customers): profiled over those rows.
  for (const hop of oneHop) {
    for (const join of joins.filter((candidate) => candidate.fromTable === hop.fromTable && candidate.toTable !== key.table && candidate.toTable !== hop.fromTable)) {
      if (scopes.some((scope) => scope.table === join.toTable)) continue;
      scopes.push({
        table: join.toTable,
        from: `${quote(join.toTable)} AS t JOIN ${quote(hop.fromTable)} AS r ON r.${quote(join.fromColumn)} = t.${quote(join.toColumn)}`,
        where: `r.${quote(hop.fromColumn)} = ${id}`,
        via: `${join.toTable} of its ${hop.fromTable}`,
      });
    }
  }
  for (const hop of oneHop) {
    const hopKey = keys.get(hop.fromTable);
    if (!hopKey) continue;
    for (const join of joins.filter((candidate) => candidate.toTable === hop.fromTable && candidate.toColumn === hopKey && candidate.fromTable !== key.table)) {
      if (scopes.some((scope) => scope.table === join.fromTable)) continue;
      scopes.push({
        table: join.fromTable,
        from: `${quote(join.fromTable)} AS t JOIN ${quote(hop.fromTable)} AS r ON t.${quote(join.fromColumn)} = r.${quote(hopKey)}`,
        where: `r.${quote(hop.fromColumn)} = ${id}`,
        via: `${join.fromTable} through ${hop.fromTable}`,
      });
    }
  }
  return scopes;
}

/** A catalog's tables as the join finder reads them: table → columns (name, type), in column order. */
export function columnsByTable(catalog: Catalog): Map<string, CatalogColumn[]> {
  return new Map(catalog.tables.map((table) => [table.name, table.columns.map(({ name, type }) => ({ name, type }))]));
}

/**
 * The joins of a database: declared foreign keys (the backend's catalog), then name candidates whose values mostly
 * exist in the key, then columns whose values all exist in another table's key (keys by declaration, by name, else an
 * all-distinct column) — measured by queries in the engine's dialect.
 */
export async function databaseJoins(rows: QueryRows, catalog: Catalog, dialect: SqlDialect): Promise<{ joins: JoinColumn[]; keys: Map<string, string> }> {
  const schema = columnsByTable(catalog);
  const declared = declaredKeys(
    catalog.keys.map((key) => ({ kind: key.kind, table_name: key.table, column_name: key.column, referenced_table: key.referencedTable, referenced_column: key.referencedColumn })),
  );
  const named = tableKeys(schema, declared.keys);
  const uniqueSql = uniqueColumnsSql(schema, named);
  const keys = uniqueSql === null ? named : withUniqueKeys(schema, named, await rows(uniqueSql));
  const byName = nameCandidates(schema, keys).filter((candidate) => !declared.joins.some((join) => join.fromTable === candidate.fromTable && join.fromColumn === candidate.fromColumn));
  const candidates = [...byName, ...containmentCandidates(schema, keys, [...declared.joins, ...byName])];
  const found = candidates.length === 0 ? [] : confirmedJoins(candidates, await rows(overlapSql(candidates, dialect)));
  return { joins: mergeJoins(declared.joins, found), keys };
}
