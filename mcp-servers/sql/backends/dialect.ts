import type { Engine } from './backend.ts';

/**
 * The SQL spelling of one engine: the pieces generated SQL (`ddr scaffold`, the explorer, the join finder, the
 * offline text-to-SQL) needs that DuckDB, SQLite and PostgreSQL spell differently — casts, rounding, division, date
 * arithmetic, ordered aggregates, statistics — and the catalog queries. Each method returns an SQL expression (or
 * statement); none runs anything, so any layer may build SQL for an engine without importing its driver.
 *
 * Sources per engine: DuckDB's functions (duckdb.org/docs/sql/functions), SQLite's core, date and math functions
 * (sqlite.org/lang_corefunc.html, lang_datefunc.html; dates are ISO text, as `db build --engine sqlite` writes them),
 * PostgreSQL 15 (`round(numeric, int)` only; integer `/` truncates; a subquery in FROM needs an alias before 16).
 */
export interface SqlDialect {
  readonly engine: Engine;
  /** The engine's name as the SQL server's tools say it ("(SQLite dialect)"). */
  readonly name: 'DuckDB' | 'SQLite' | 'PostgreSQL';
  /** A value as text (`CAST(x AS VARCHAR)`). */
  text(expression: string): string;
  /** The mean as DuckDB computes it, a double (PostgreSQL's avg of integers is an exact numeric). */
  mean(expression: string): string;
  /** A value as a double, so `/` divides without truncating. */
  double(expression: string): string;
  /** A boolean as 0 or 1. */
  integer(expression: string): string;
  /** `a / b` without integer truncation (DuckDB's `/` always divides exactly). */
  divide(numerator: string, denominator: string): string;
  /** A value (a day's text) as a date. */
  toDate(expression: string): string;
  /** `round(x, digits)` for any numeric `x` (PostgreSQL rounds only numeric). */
  round(expression: string, digits: number): string;
  /** The distinct values of a text column joined by commas, in order (an aggregate). */
  commaListDistinct(column: string): string;
  /** Any one of a group's values, where all are the same (PostgreSQL 15 and SQLite: `min`). */
  anyValue(expression: string): string;
  /** The larger of two values (SQLite: two-argument `max`). */
  greatest(left: string, right: string): string;
  /** Distinct values, counted approximately where the engine can. */
  approxCountDistinct(expression: string): string;
  /** `arg_min(arg, value)` / `arg_max`: `arg` of the row with the least (greatest) non-null `value`, among non-null `arg`s. */
  argMin(arg: string, value: string): string;
  argMax(arg: string, value: string): string;
  /** The sample standard deviation of `value` over the rows of `relation` (a table or CTE name), as a scalar subquery. */
  stddevSampOver(value: string, relation: string): string;
  /** The median of `value` over the rows of `relation`, as a scalar subquery (PostgreSQL's `percentile_cont(0.5)`). */
  medianOver(value: string, relation: string): string;
  /** The calendar day of a date or timestamp, as a date (SQLite: ISO text). */
  day(expression: string): string;
  /** The calendar day as 'YYYY-MM-DD' text. */
  dayText(expression: string): string;
  /** The weekday's English name (Monday … Sunday). */
  dayName(expression: string): string;
  /** The hour of the day (0 … 23) of a timestamp, as an integer. */
  hour(expression: string): string;
  /** Calendar days from `start` to `end` (DuckDB `date_diff('day', …)`: day boundaries crossed). */
  daysBetween(start: string, end: string): string;
  /** A day (`'2024-03-05'`) as a date literal; `plusDays` after it. */
  dateLiteral(day: string, plusDays?: number): string;
  /** A timestamp literal (`'2024-03-05'` is its midnight); `plusDays` after it. */
  timestampLiteral(text: string, plusDays?: number): string;
  /** A date expression `days` later. */
  addDays(expression: string, days: number): string;
  /** The middle day between the earliest and latest value of a date or timestamp column, as 'YYYY-MM-DD' text (an aggregate). */
  midpointDay(column: string): string;
  /** Days from one DATE column to another (DuckDB's and PostgreSQL's `end - start`; SQLite's dates are text). */
  dateMinus(end: string, start: string): string;
  /** A subquery in FROM (PostgreSQL 15 and SQLite get the alias; DuckDB's text is kept as the suite has it, without). */
  derived(sql: string, alias: string): string;
  /** One row per table: `table_name`, `columns` as `name::type | …` in column order. */
  readonly schemaSql: string;
  /** One row per single-column PRIMARY KEY / UNIQUE / FOREIGN KEY: `kind`, `table_name`, `column_name`, `referenced_table`, `referenced_column`. */
  readonly keysSql: string;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

const duckdb: SqlDialect = {
  engine: 'duckdb',
  name: 'DuckDB',
  text: (expression) => `${expression}::VARCHAR`,
  mean: (expression) => `avg(${expression})`,
  double: (expression) => `${expression}::DOUBLE`,
  integer: (expression) => `${expression}::INTEGER`,
  divide: (numerator, denominator) => `${numerator} / ${denominator}`,
  toDate: (expression) => `CAST(${expression} AS DATE)`,
  round: (expression, digits) => `round(${expression}, ${digits})`,
  commaListDistinct: (column) => `string_agg(DISTINCT ${column}, ',' ORDER BY ${column})`,
  anyValue: (expression) => `any_value(${expression})`,
  greatest: (left, right) => `greatest(${left}, ${right})`,
  approxCountDistinct: (expression) => `approx_count_distinct(${expression})`,
  argMin: (arg, value) => `arg_min(${arg}, ${value})`,
  argMax: (arg, value) => `arg_max(${arg}, ${value})`,
  stddevSampOver: (value, relation) => `(SELECT stddev_samp(${value}) FROM ${relation})`,
  medianOver: (value, relation) => `(SELECT median(${value}) FROM ${relation})`,
  day: (expression) => `${expression}::DATE`,
  dayText: (expression) => `strftime(${expression}, '%Y-%m-%d')`,
  dayName: (expression) => `dayname(${expression})`,
  hour: (expression) => `hour(${expression})`,
  daysBetween: (start, end) => `date_diff('day', ${start}, ${end})`,
  dateLiteral: (day, plusDays = 0) => `DATE ${literal(day)}${plusDays ? ` + ${plusDays}` : ''}`,
  timestampLiteral: (text, plusDays = 0) => `TIMESTAMP ${literal(text)}${plusDays ? ` + INTERVAL ${plusDays} DAY` : ''}`,
  addDays: (expression, days) => `${expression} + ${days}`,
  // dates are taken as timestamps: DATE − DATE is a count of days, which DuckDB cannot add back as a fraction
  midpointDay: (column) => `(min(${column}::TIMESTAMP) + (max(${column}::TIMESTAMP) - min(${column}::TIMESTAMP)) / 2)::DATE::VARCHAR`,
  dateMinus: (end, start) => `${end} - ${start}`,
  derived: (sql) => `(${sql})`,
  // One row per table, so a row limit on results never hides a table.
  schemaSql:
    "SELECT table_name, string_agg(column_name || '::' || data_type, ' | ' ORDER BY ordinal_position) AS columns " +
    "FROM information_schema.columns WHERE table_schema = 'main' GROUP BY table_name ORDER BY table_name",
  keysSql:
    'SELECT constraint_type AS kind, table_name, constraint_column_names[1] AS column_name, referenced_table, referenced_column_names[1] AS referenced_column ' +
    "FROM duckdb_constraints() WHERE schema_name = 'main' AND constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY') AND len(constraint_column_names) = 1",
};

const postgres: SqlDialect = {
  engine: 'postgres',
  name: 'PostgreSQL',
  text: (expression) => `CAST(${expression} AS TEXT)`,
  mean: (expression) => `avg(CAST(${expression} AS DOUBLE PRECISION))`,
  double: (expression) => `CAST(${expression} AS DOUBLE PRECISION)`,
  integer: (expression) => `CAST(${expression} AS INTEGER)`,
  divide: (numerator, denominator) => `CAST(${numerator} AS DOUBLE PRECISION) / ${denominator}`,
  toDate: (expression) => `CAST(${expression} AS DATE)`,
  // DuckDB's rounding of a double, round(x · 10ⁿ) / 10ⁿ half away from zero, on doubles and numerics alike
  // (PostgreSQL's round(numeric) would first cast a double to 15 digits: 0.22499… → 0.225 → 0.23, DuckDB says 0.22).
  round: (expression, digits) => {
    const scaled = `(${expression}) * ${10 ** digits}`;
    return `(sign(${scaled}) * floor(abs(${scaled}) + 0.5) / ${10 ** digits})`;
  },
  commaListDistinct: (column) => `string_agg(DISTINCT ${column}, ',' ORDER BY ${column})`,
  anyValue: (expression) => `min(${expression})`,
  greatest: (left, right) => `greatest(${left}, ${right})`,
  approxCountDistinct: (expression) => `count(DISTINCT ${expression})`,
  argMin: (arg, value) => `(array_agg(${arg} ORDER BY ${value}) FILTER (WHERE ${arg} IS NOT NULL AND ${value} IS NOT NULL))[1]`,
  argMax: (arg, value) => `(array_agg(${arg} ORDER BY ${value} DESC) FILTER (WHERE ${arg} IS NOT NULL AND ${value} IS NOT NULL))[1]`,
  stddevSampOver: (value, relation) => `(SELECT stddev_samp(${value}) FROM ${relation})`,
  medianOver: (value, relation) => `(SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ${value}) FROM ${relation})`,
  day: (expression) => `CAST(${expression} AS DATE)`,
  dayText: (expression) => `to_char(${expression}, 'YYYY-MM-DD')`,
  dayName: (expression) => `to_char(${expression}, 'FMDay')`,
  hour: (expression) => `CAST(extract(hour FROM ${expression}) AS INTEGER)`,
  daysBetween: (start, end) => `(CAST(${end} AS DATE) - CAST(${start} AS DATE))`,
  dateLiteral: (day, plusDays = 0) => `DATE ${literal(day)}${plusDays ? ` + ${plusDays}` : ''}`,
  timestampLiteral: (text, plusDays = 0) => `TIMESTAMP ${literal(text)}${plusDays ? ` + INTERVAL '${plusDays} day'` : ''}`,
  addDays: (expression, days) => `${expression} + ${days}`,
  midpointDay: (column) =>
    `to_char(min(CAST(${column} AS TIMESTAMP)) + (max(CAST(${column} AS TIMESTAMP)) - min(CAST(${column} AS TIMESTAMP))) / 2, 'YYYY-MM-DD')`,
  dateMinus: (end, start) => `${end} - ${start}`,
  derived: (sql, alias) => `(${sql}) AS ${alias}`,
  schemaSql:
    "SELECT table_name, string_agg(column_name || '::' || upper(data_type), ' | ' ORDER BY ordinal_position) AS columns " +
    "FROM information_schema.columns WHERE table_schema = current_schema() GROUP BY table_name ORDER BY table_name",
  // pg_constraint: conkey/confkey hold the columns of a constraint; single-column ones only.
  keysSql:
    "SELECT CASE c.contype WHEN 'p' THEN 'PRIMARY KEY' WHEN 'u' THEN 'UNIQUE' ELSE 'FOREIGN KEY' END AS kind, t.relname AS table_name, a.attname AS column_name, " +
    'rt.relname AS referenced_table, ra.attname AS referenced_column FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid ' +
    'JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] LEFT JOIN pg_class rt ON rt.oid = c.confrelid ' +
    "LEFT JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1] WHERE c.contype IN ('p', 'u', 'f') AND cardinality(c.conkey) = 1 " +
    'AND t.relnamespace = current_schema()::regnamespace ORDER BY 2, 1',
};

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const sqliteOrdered = (arg: string, value: string, order: string) =>
  `(json_group_array(${arg} ORDER BY ${value}${order}) FILTER (WHERE ${arg} IS NOT NULL AND ${value} IS NOT NULL) ->> 0)`;

const sqlite: SqlDialect = {
  engine: 'sqlite',
  name: 'SQLite',
  text: (expression) => `CAST(${expression} AS TEXT)`,
  mean: (expression) => `avg(${expression})`,
  double: (expression) => `CAST(${expression} AS REAL)`,
  integer: (expression) => `CAST(${expression} AS INTEGER)`,
  divide: (numerator, denominator) => `CAST(${numerator} AS REAL) / ${denominator}`,
  toDate: (expression) => `date(${expression})`,
  // DuckDB rounds a double as round(x · 10ⁿ) / 10ⁿ (so 751.15 → 751.2); SQLite's round(x, n) reads x's binary
  // value (751.1499… → 751.1). Scaling first gives DuckDB's answer.
  round: (expression, digits) => (digits === 0 ? `round(${expression})` : `round((${expression}) * ${10 ** digits}.0) / ${10 ** digits}.0`),
  // DISTINCT takes one argument in SQLite; ',' is group_concat's own separator.
  commaListDistinct: (column) => `group_concat(DISTINCT ${column} ORDER BY ${column})`,
  anyValue: (expression) => `min(${expression})`,
  greatest: (left, right) => `max(${left}, ${right})`,
  approxCountDistinct: (expression) => `count(DISTINCT ${expression})`,
  // SQLite 3.44+ orders an aggregate's input; `->> 0` is the array's first element as an SQL value.
  argMin: (arg, value) => sqliteOrdered(arg, value, ''),
  argMax: (arg, value) => sqliteOrdered(arg, value, ' DESC'),
  // No stddev in SQLite: the two-pass formula, sqrt(Σ(v − mean)² / (n − 1)).
  stddevSampOver: (value, relation) =>
    `(SELECT CASE WHEN count(${value}) > 1 THEN sqrt(sum((${value} - m.mean) * (${value} - m.mean)) / (count(${value}) - 1)) END FROM ${relation}, (SELECT avg(${value}) AS mean FROM ${relation}) AS m)`,
  // The middle value, or the mean of the two middle values.
  medianOver: (value, relation) =>
    `(SELECT avg(v) FROM (SELECT ${value} AS v FROM ${relation} WHERE ${value} IS NOT NULL ORDER BY 1 LIMIT 2 - (SELECT count(${value}) FROM ${relation}) % 2 OFFSET ((SELECT count(${value}) FROM ${relation}) - 1) / 2) AS middle)`,
  day: (expression) => `date(${expression})`,
  dayText: (expression) => `date(${expression})`,
  dayName: (expression) => `CASE strftime('%w', ${expression}) ${WEEKDAYS.map((name, index) => `WHEN '${index}' THEN '${name}'`).join(' ')} END`,
  hour: (expression) => `CAST(strftime('%H', ${expression}) AS INTEGER)`,
  daysBetween: (start, end) => `CAST(julianday(date(${end})) - julianday(date(${start})) AS INTEGER)`,
  dateLiteral: (day, plusDays = 0) => (plusDays ? `date(${literal(day)}, '+${plusDays} days')` : literal(day)),
  // Timestamps are ISO text ('2024-03-05 10:00:00'): a day's text sorts before every time of that day, as its midnight does.
  timestampLiteral: (text, plusDays = 0) => (plusDays ? `date(${literal(text)}, '+${plusDays} days')` : literal(text)),
  addDays: (expression, days) => `date(${expression}, '+${days} days')`,
  midpointDay: (column) => `date((julianday(min(${column})) + julianday(max(${column}))) / 2)`,
  dateMinus: (end, start) => `(julianday(${end}) - julianday(${start}))`,
  derived: (sql, alias) => `(${sql}) AS ${alias}`,
  schemaSql:
    "SELECT m.name AS table_name, group_concat(p.name || '::' || upper(p.type), ' | ' ORDER BY p.cid) AS columns " +
    "FROM sqlite_schema AS m, pragma_table_info(m.name) AS p WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite_%' GROUP BY m.name ORDER BY m.name",
  keysSql:
    "SELECT 'PRIMARY KEY' AS kind, m.name AS table_name, p.name AS column_name, NULL AS referenced_table, NULL AS referenced_column " +
    "FROM sqlite_schema AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table' AND p.pk = 1 AND (SELECT count(*) FROM pragma_table_info(m.name) WHERE pk > 0) = 1 " +
    "UNION ALL SELECT 'FOREIGN KEY', m.name, f.\"from\", f.\"table\", f.\"to\" FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS f " +
    "WHERE m.type = 'table' AND (SELECT count(*) FROM pragma_foreign_key_list(m.name) AS g WHERE g.id = f.id) = 1",
};

const DIALECTS: Record<Engine, SqlDialect> = { duckdb, sqlite, postgres };

/** The SQL spelling of an engine. */
export const dialectOf = (engine: Engine): SqlDialect => DIALECTS[engine];

/** The dialect a text names ("(SQLite dialect)", "PostgreSQL 15.18", "DuckDB v1.4.1"); DuckDB when it names none. */
export function dialectNamed(text: string): SqlDialect {
  return Object.values(DIALECTS).find((dialect) => new RegExp(`\\b${dialect.name}\\b`, 'u').test(text)) ?? duckdb;
}
