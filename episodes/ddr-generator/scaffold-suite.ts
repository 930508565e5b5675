import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dialectOf, type SqlDialect } from '../../mcp-servers/sql/backends/dialect.ts';
import { isPostgresUrl } from '../../mcp-servers/sql/backends/engine.ts';
import {
  CATEGORICAL,
  columnsByTable,
  databaseJoins,
  literal,
  NUMERIC,
  quote,
  singular,
  TEMPORAL,
  TEXTUAL,
  words,
  type CatalogColumn,
  type JoinColumn,
} from '../../mcp-servers/sql/backends/join-columns.ts';
import { rowsOf, withCatalog, type QueryRows } from '../../mcp-servers/sql/backends/read-catalog.ts';
import { SandboxError } from '../../src/sandbox-error.ts';
import type { DdrTask } from '../../src/schemas/ddr-task.ts';
import { dominanceEffect, dominanceLower, outlierEffect, outlierLower, peakEffect, peakLower, trendEffect, trendLower, type MeasuredEffect, type Sample } from './effect-size.ts';
import { generateDdrTasks } from './generate-ddr-tasks.ts';
import { ordinal, type FactTemplate, type ScenarioSpec } from './scenario-spec.ts';

export interface ScaffoldOptions {
  /** The database: a DuckDB or SQLite file, or a `postgres://` URL. */
  db: string;
  /** `TABLE.KEY`: the table whose rows are the entities and the column holding their ids. */
  entity: string;
  /** The time column trends are measured over (`COLUMN` or `TABLE.COLUMN`); the first date column of a related table when absent. */
  time?: string;
  /** Entities (tasks) to write, the first by id that have enough facts. */
  count: number;
  out: string;
}

/** Numeric columns of the first related table whose average is asked of every entity (context; the insights are chosen by effect size). */
const MAX_NUMERIC = 2;
/** Numeric and category columns of one related table considered as candidates (bounds the scaffold's queries). */
const MAX_CANDIDATE_COLUMNS = 8;
/** Candidates asked per entity: the strongest, by effect strength (effect-size.ts). */
const ASK_STRONGEST = 6;
const MAX_CHOICES = 30;
/** Memory the scaffold's queries may use (every entity's facts are aggregates over whole tables). */
const SCAFFOLD_MEMORY_BYTES = 2 * 2 ** 30;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Distinct values of a low-cardinality text column (its choices), or null when it has too many to be a category. */
async function choicesOf(rows: QueryRows, dialect: SqlDialect, table: string, column: string): Promise<string[] | null> {
  const found = await rows(`SELECT DISTINCT ${dialect.text(quote(column))} AS v FROM ${quote(table)} WHERE ${quote(column)} IS NOT NULL ORDER BY 1 LIMIT ${MAX_CHOICES + 1}`);
  return found.length >= 2 && found.length <= MAX_CHOICES ? found.map((row) => String(row.v)) : null;
}

/** A category's value for each row of `table` (alias t): its own column, or, through its join (alias `alias`), the referenced row's. */
function categoryValue(category: Category, alias: string): { value: string; join: string } {
  const { join, column } = category;
  return join
    ? { value: `${alias}.${quote(column)}`, join: ` JOIN ${quote(join.toTable)} ${alias} ON t.${quote(join.fromColumn)} = ${alias}.${quote(join.toColumn)}` }
    : { value: `t.${quote(column)}`, join: '' };
}

/**
 * Whether a category reached through a join is the same fact as one already asked of the table's rows: their values
 * correspond one to one over the table (as many value pairs as values of either), so the most frequent of one names
 * the most frequent of the other ("the district of the end station" where the rows carry the end district too; the
 * name of the end station where the end station is asked).
 */
async function repeatsCategory(rows: QueryRows, dialect: SqlDialect, table: string, category: Category, asked: readonly Category[]): Promise<boolean> {
  const mine = categoryValue(category, 'b');
  for (const other of asked) {
    const theirs = categoryValue(other, 'a');
    const pairs = `SELECT ${theirs.value} AS x, ${mine.value} AS y FROM ${quote(table)} t${theirs.join}${mine.join} WHERE ${theirs.value} IS NOT NULL AND ${mine.value} IS NOT NULL GROUP BY 1, 2`;
    const [row] = await rows(`SELECT count(*) AS pairs, count(DISTINCT x) AS xs, count(DISTINCT y) AS ys FROM ${dialect.derived(pairs, 'p')}`);
    const [found, xs, ys] = [Number(row?.pairs ?? 0), Number(row?.xs ?? 0), Number(row?.ys ?? 0)];
    if (found > 0 && found === xs && found === ys) return true;
  }
  return false;
}

/** A tolerance a stated value may be off by: the rounding of two decimals, or half a percent of its size. */
const toleranceSql = (dialect: SqlDialect, value: string) => `SELECT ${dialect.round(dialect.greatest('0.01', `abs(${value}) * 0.005`), 2)}`;

/**
 * A category over a related table's rows, a candidate for the entity's dominant value: a text column of the table
 * itself (its own, or one referencing another table: "end station"), or a text column of a table it references
 * (`join`: the end station's district).
 */
interface Category {
  column: string;
  choices: string[];
  join?: JoinColumn;
  /** The column references another table (its values are that table's ids). */
  references: boolean;
}

/**
 * One related table (rows referencing the entity) and what its facts are built from: its numeric columns (the
 * first MAX_NUMERIC averaged for every entity; all of them candidates for a trend and an outlier), its time column,
 * its categories (candidates for the dominant value).
 */
interface RelatedTable {
  table: string;
  column: string;
  numeric: CatalogColumn[];
  time?: string;
  /** The time column is a date (its rows have a peak weekday) or a timestamp (a peak hour too). */
  calendar?: 'date' | 'timestamp';
  categories: Category[];
  /** The time column's midpoint over the whole table, as SQL and as text (trends compare the halves). */
  midpoint?: { sql: string; text: string };
}

/** Units a column name's suffix gives its values ("duration_s": seconds), for the item's unit and wording. */
const UNIT_SUFFIXES: Array<[RegExp, { unit: string; words: string }]> = [
  [/_(s|sec|secs|seconds)$/i, { unit: 's', words: 'seconds' }],
  [/_(min|mins|minutes)$/i, { unit: 'min', words: 'minutes' }],
  [/_(h|hr|hrs|hours)$/i, { unit: 'h', words: 'hours' }],
  [/_(d|days)$/i, { unit: 'days', words: 'days' }],
  [/_(pct|percent)$/i, { unit: '%', words: 'percent' }],
];

/** A numeric column as a measure in words and its unit, when its name's suffix says one ("duration_s" → "duration", seconds). */
function measureOf(column: string): { measure: string; unit?: { unit: string; words: string } } {
  const found = UNIT_SUFFIXES.find(([pattern]) => pattern.test(column));
  return found ? { measure: words(column.replace(found[0], '')), unit: found[1] } : { measure: words(column) };
}

/** Numbers of a query's rows' first column. */
const numbersOf = (found: Array<Record<string, unknown>>) => found.map((row) => Number(Object.values(row)[0]));

/** The mean, sample standard deviation and count of `value` over the rows `where` selects (effect-size.ts's Sample), or null without rows. */
async function sampleOf(query: QueryRows, dialect: SqlDialect, table: string, value: string, where: string): Promise<Sample | null> {
  const [row] = await query(
    `WITH e AS (SELECT ${dialect.double(value)} AS v FROM ${quote(table)} WHERE ${where} AND ${value} IS NOT NULL) SELECT (SELECT count(v) FROM e) AS n, (SELECT avg(v) FROM e) AS m, ${dialect.stddevSampOver('v', 'e')} AS s`,
  );
  const n = Number(row?.n ?? 0);
  return n === 0 ? null : { n, mean: Number(row!.m), sd: row!.s == null ? 0 : Number(row!.s) };
}

/** A proportion kind's effect from its bins' counts: size, Wilson lower bound and rows (effect-size.ts). */
function binnedEffect(counts: number[], size: (counts: number[]) => number | null, lower: (counts: number[]) => number | null): MeasuredEffect | null {
  const estimate = size(counts);
  const bound = lower(counts);
  return estimate === null || bound === null ? null : { size: estimate, lower: bound, rows: counts.reduce((sum, count) => sum + count, 0) };
}

/**
 * SQL results shared by every entity's candidates (every peer's average is one query, whichever entity asks), for
 * the length of one scaffold.
 */
function memoized(rows: QueryRows): QueryRows {
  const cache = new Map<string, Promise<Array<Record<string, unknown>>>>();
  return (sql) => {
    if (!cache.has(sql)) cache.set(sql, rows(sql));
    return cache.get(sql)!;
  };
}

/**
 * The facts of one related table: its count, the averages of its first MAX_NUMERIC numeric columns (`averages`:
 * for the first related table only, the context of the checklist), and the candidates ranked by effect size — per
 * numeric column an outlier (rank and z-score among peers) and a trend (change and direction over the time
 * column), per category its dominant value, and the peak hour and weekday of the time column.
 */
function relatedFacts(dialect: SqlDialect, kind: string, id: string, related: RelatedTable, peers: number, shared: QueryRows, averages: boolean): FactTemplate[] {
  const { round, derived } = dialect;
  const { table, column } = related;
  const mine = `${quote(column)} = ${literal(id)}`;
  /** "the trips with origin id PL001": the rows of the related table that reference the entity. */
  const rows = `the ${words(table)} with ${words(column)} ${id}`;
  const prefix = `${table}-${column}`;
  const facts: FactTemplate[] = [
    {
      id: `${prefix}-count`,
      kind: 'aggregate',
      question: `How many ${words(table)} have ${words(column)} ${id}?`,
      answer_type: 'number',
      tolerance: 0,
      unit: words(table),
      sql: `SELECT count(*) FROM ${quote(table)} WHERE ${mine}`,
      statement: (answer) => `There are ${answer} ${words(table)} with ${words(column)} ${id}.`,
    },
  ];
  related.numeric.forEach((numeric, index) => {
    const value = quote(numeric.name);
    const { measure, unit } = measureOf(numeric.name);
    const subject = `${measure} of ${rows}`;
    const perEntity = `SELECT ${quote(column)} AS k, avg(${value}) AS v FROM ${quote(table)} WHERE ${quote(column)} IS NOT NULL GROUP BY 1`;
    if (averages && index < MAX_NUMERIC) {
      facts.push({
        id: `${prefix}-${numeric.name}-mean`,
        kind: 'aggregate',
        question: `What is the average ${measure} of ${rows}${unit ? `, in ${unit.words}` : ''}?`,
        ...(unit ? { unit: unit.unit } : {}),
        answer_type: 'number',
        toleranceSql: toleranceSql(dialect, `(SELECT avg(${value}) FROM ${quote(table)} WHERE ${mine})`),
        sql: `SELECT ${round(`avg(${value})`, 2)} FROM ${quote(table)} WHERE ${mine}`,
        ambiguousSql: `SELECT avg(${value}) IS NULL FROM ${quote(table)} WHERE ${mine}`,
        statement: (answer) => `The average ${subject} is ${answer}${unit ? ` ${unit.words}` : ''}.`,
      });
    }
    // An outlier among its peers: the rank and the z-score of its average, asked together when its robust z stands out.
    const outlier = {
      kind: 'outlier' as const,
      group: `${prefix}-${numeric.name}-outlier`,
      measure: async (query: QueryRows) => {
        const averages = await shared(`SELECT k, v FROM ${derived(perEntity, 'g')} WHERE v IS NOT NULL`);
        const own = averages.find((row) => String(row.k) === id);
        if (!own) return null;
        const peerMeans = averages.map((row) => Number(row.v));
        const size = outlierEffect(Number(own.v), peerMeans);
        const sample = size === null ? null : await sampleOf(query, dialect, table, value, mine);
        const lower = sample && outlierLower(sample, peerMeans);
        return size === null || !sample || lower == null ? null : { size, lower, rows: sample.n };
      },
    };
    facts.push({
      id: `${prefix}-${numeric.name}-rank`,
      kind: 'rank',
      question: `Among the ${peers} ${kind} values that have ${words(table)} by ${words(column)}, where does ${kind} ${id} rank by the average ${measure} of those ${words(table)} (1 = highest)?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'rank',
      peers,
      rank_by: 'highest',
      sql: `SELECT r FROM ${derived(`SELECT k, rank() OVER (ORDER BY ${round('v', 6)} DESC) AS r FROM ${derived(perEntity, 'g')}`, 'ranked')} WHERE k = ${literal(id)}`,
      ambiguousSql: `SELECT count(*) > 1 FROM ${derived(perEntity, 'g')} WHERE ${round('v', 6)} = (SELECT ${round('v', 6)} FROM ${derived(perEntity, 'e')} WHERE k = ${literal(id)})`,
      statement: (answer) => `By the average ${subject}, ${kind} ${id} ranks ${ordinal(answer)} highest of ${peers}.`,
      effect: outlier,
    });
    facts.push({
      id: `${prefix}-${numeric.name}-z-score`,
      kind: 'anomaly',
      question: `How many standard deviations is the average ${subject} from the mean over all ${kind} values (positive = above)?`,
      answer_type: 'number',
      tolerance: 0.1,
      unit: 'σ',
      sql: `WITH g AS (${perEntity}) SELECT ${round(`(v - (SELECT avg(v) FROM g)) / ${dialect.stddevSampOver('v', 'g')}`, 2)} FROM g WHERE k = ${literal(id)}`,
      ambiguousSql: `WITH g AS (${perEntity}) SELECT count(*) < 3 OR coalesce(${dialect.stddevSampOver('v', 'g')}, 0) = 0 OR count(*) FILTER (WHERE k = ${literal(id)}) = 0 FROM g`,
      statement: (answer) => `The average ${subject} is ${Math.abs(Number(answer))} standard deviations ${Number(answer) < 0 ? 'below' : 'above'} the mean over all ${kind} values.`,
      effect: outlier,
    });
    if (related.time && related.midpoint) {
      const { sql: midpoint, text: since } = related.midpoint;
      const half = (comparison: string) => `(SELECT avg(${value}) FROM ${quote(table)} WHERE ${mine} AND ${quote(related.time!)} ${comparison} ${midpoint})`;
      // A trend: the change and its direction, asked together when the change is large enough.
      const trend = {
        kind: 'trend' as const,
        group: `${prefix}-${numeric.name}-trend`,
        measure: async (query: QueryRows) => {
          const before = await sampleOf(query, dialect, table, value, `${mine} AND ${quote(related.time!)} < ${midpoint}`);
          const after = await sampleOf(query, dialect, table, value, `${mine} AND ${quote(related.time!)} >= ${midpoint}`);
          if (!before || !after) return null;
          const size = trendEffect(before.mean, after.mean);
          const lower = trendLower(before, after);
          return size === null || lower === null ? null : { size, lower, rows: before.n + after.n };
        },
      };
      facts.push({
        id: `${prefix}-${numeric.name}-change`,
        kind: 'trend',
        question: `By what percent did the average ${subject} change from before ${since} to after (by ${words(related.time)})?`,
        answer_type: 'number',
        tolerance: 0.5,
        unit: '%',
        // Relative to the earlier mean's size, so a negative measure that rises (sentiment −0.4 → −0.1) changes by a
        // positive percent, as its direction says.
        sql: `SELECT ${round(`100 * (${dialect.double(half('>='))} - ${half('<')}) / abs(${half('<')})`, 1)}`,
        ambiguousSql: `SELECT ${half('>=')} IS NULL OR ${half('<')} IS NULL OR ${half('<')} = 0`,
        statement: (answer) =>
          Number(answer) === 0
            ? `The average ${subject} did not change (0 %) from before ${since} to after.`
            : `The average ${subject} ${Number(answer) < 0 ? 'fell' : 'rose'} by ${Math.abs(Number(answer))}% from before ${since} to after.`,
        effect: trend,
      });
      facts.push({
        id: `${prefix}-${numeric.name}-direction`,
        kind: 'trend',
        question: `Did the average ${subject} increase, decrease or stay stable from before ${since} to after (stable: within 5 %)?`,
        answer_type: 'direction',
        sql: `SELECT CASE WHEN abs(${half('>=')} - ${half('<')}) <= 0.05 * abs(${half('<')}) THEN 'stable' WHEN ${half('>=')} > ${half('<')} THEN 'increased' ELSE 'decreased' END`,
        ambiguousSql: `SELECT ${half('>=')} IS NULL OR ${half('<')} IS NULL`,
        statement: (answer) => `From before ${since} to after, the average ${subject} ${answer === 'stable' ? 'stayed stable' : answer}.`,
        effect: trend,
      });
    }
  });
  for (const category of related.categories) {
    const { join, column: name, choices } = category;
    const target = join ? `o.${quote(name)}` : `t.${quote(name)}`;
    const from = join ? `${quote(table)} t JOIN ${quote(join.toTable)} o ON t.${quote(join.fromColumn)} = o.${quote(join.toColumn)}` : `${quote(table)} t`;
    const counts = `SELECT ${dialect.text(target)} AS value, count(*) AS n FROM ${from} WHERE t.${mine} AND ${target} IS NOT NULL GROUP BY 1`;
    // "rider", "end station"; through a join, the category of the row it references, by the reference's role:
    // "district of the end station", "model of the vehicle" (vehicle_id).
    const what = join ? `${words(name)} of the ${words(join.fromColumn.replace(/_(id|no|code|ref|key)$/i, ''))}` : words(name);
    facts.push({
      id: join ? `${prefix}-${join.fromColumn}-${name}` : `${prefix}-${name}`,
      kind: category.references || join ? 'relationship' : 'aggregate',
      question: `Which ${what} is most frequent among ${rows}?`,
      answer_type: 'category',
      choices,
      sql: `SELECT value FROM ${derived(counts, 'c')} ORDER BY n DESC, value LIMIT 1`,
      ambiguousSql: `SELECT count(*) = 0 OR count(*) FILTER (WHERE n = (SELECT max(n) FROM ${derived(counts, 'm')})) > 1 FROM ${derived(counts, 'c')}`,
      statement: (answer) => `The most frequent ${what} among ${rows} is ${answer}.`,
      effect: { kind: 'dominant', group: `${prefix}-${join ? `${join.fromColumn}-` : ''}${name}-dominant`, measure: async (query) => binnedEffect(numbersOf(await query(`SELECT n FROM ${derived(counts, 'c')}`)), dominanceEffect, dominanceLower) },
    });
  }
  if (related.time && related.calendar) {
    const time = quote(related.time);
    const peak = (bin: string) => `SELECT ${bin} AS value, count(*) AS n FROM ${quote(table)} WHERE ${mine} AND ${time} IS NOT NULL GROUP BY 1`;
    const tie = (counts: string) => `SELECT count(*) = 0 OR count(*) FILTER (WHERE n = (SELECT max(n) FROM ${derived(counts, 'm')})) > 1 FROM ${derived(counts, 'c')}`;
    if (related.calendar === 'timestamp') {
      const hours = peak(dialect.hour(time));
      facts.push({
        id: `${prefix}-${related.time}-peak-hour`,
        kind: 'aggregate',
        question: `In which hour of the day (0–23, by ${words(related.time)}) do most of ${rows} fall?`,
        answer_type: 'number',
        tolerance: 0,
        unit: 'hour of day',
        sql: `SELECT value FROM ${derived(hours, 'c')} ORDER BY n DESC, value LIMIT 1`,
        ambiguousSql: tie(hours),
        statement: (answer) => `Most of ${rows} fall in the hour from ${answer}:00 (by ${words(related.time!)}).`,
        effect: { kind: 'peak-hour', group: `${prefix}-${related.time}-peak-hour`, measure: async (query) => binnedEffect(numbersOf(await query(`SELECT n FROM ${derived(hours, 'c')}`)), (found) => peakEffect(found, 24), (found) => peakLower(found, 24)) },
      });
    }
    const days = peak(dialect.dayName(time));
    facts.push({
      id: `${prefix}-${related.time}-peak-weekday`,
      kind: 'aggregate',
      question: `On which weekday (by ${words(related.time)}) do most of ${rows} fall?`,
      answer_type: 'category',
      choices: WEEKDAYS,
      sql: `SELECT value FROM ${derived(days, 'c')} ORDER BY n DESC, value LIMIT 1`,
      ambiguousSql: tie(days),
      statement: (answer) => `Most of ${rows} fall on a ${answer} (by ${words(related.time!)}).`,
      effect: { kind: 'peak-weekday', group: `${prefix}-${related.time}-peak-weekday`, measure: async (query) => binnedEffect(numbersOf(await query(`SELECT n FROM ${derived(days, 'c')}`)), (found) => peakEffect(found, 7), (found) => peakLower(found, 7)) },
    });
  }
  return facts;
}

/**
 * Writes a DDR suite for any database — a DuckDB or SQLite file, or a PostgreSQL URL, read through its engine's
 * backend, every query in its dialect — one task per entity of `TABLE.KEY`, its checklist from SQL templates over
 * the entity's own row and the tables referencing it (declared keys, or names and value overlap) — lookups of its
 * categories, counts and averages, then the candidates ranked by effect size (effect-size.ts; the strongest
 * ASK_STRONGEST asked): trends over the time column, dominant values of categories (also reached through a further
 * join), the peak hour and weekday, outliers among all entities (rank and z-score) — each with its verification SQL
 * and tolerance, and a reference trajectory. Bad input (no such table or column, no entity with enough facts) is one
 * line naming it, and nothing is written.
 */
export async function scaffoldSuite(options: ScaffoldOptions): Promise<{ tasks: DdrTask[]; files: string[] }> {
  const [table, column, extra] = options.entity.split('.');
  if (!table || !column || extra !== undefined) throw new SandboxError('invalid-input', `--entity ${options.entity}: expected TABLE.KEY (e.g. places.id)`);
  const postgres = isPostgresUrl(options.db);
  const db = postgres ? options.db : path.resolve(options.db);
  return withCatalog(db, async (backend, catalog, engine) => {
    const dialect = dialectOf(engine);
    const rows = rowsOf(backend);
    const schema = columnsByTable(catalog);
    if (!schema.has(table)) throw new SandboxError('invalid-input', `--entity ${options.entity}: no table "${table}" in ${options.db} (tables: ${[...schema.keys()].join(', ')})`);
    const own = schema.get(table)!;
    if (!own.some((candidate) => candidate.name === column)) {
      throw new SandboxError('invalid-input', `--entity ${options.entity}: table "${table}" has no column "${column}" (columns: ${own.map((candidate) => candidate.name).join(', ')})`);
    }
    const { joins, keys } = await databaseJoins(rows, catalog, dialect);
    const referencing = joins.filter((join) => join.toTable === table && join.toColumn === column && join.fromTable !== table);
    const [timeTable, timeColumn] = options.time?.includes('.') ? options.time.split('.') : [undefined, options.time];
    if (timeColumn !== undefined) {
      const holders = [...schema].filter(([name, columns]) => (timeTable === undefined || name === timeTable) && columns.some((candidate) => candidate.name === timeColumn));
      if (holders.length === 0) throw new SandboxError('invalid-input', `--time ${options.time}: no such column in ${timeTable ? `table "${timeTable}"` : 'any table'} of ${options.db}`);
    }
    const sizes = new Map<string, number>();
    const rowCount = async (name: string) => {
      if (!sizes.has(name)) sizes.set(name, Number((await rows(`SELECT count(*) AS n FROM ${quote(name)}`))[0]?.n ?? 0));
      return sizes.get(name)!;
    };
    /** A text column's choices, when it is a category: few values, and not one per row or so (a name, a label: an identifier). */
    const categoryChoices = async (name: string, candidate: string) => {
      const choices = await choicesOf(rows, dialect, name, candidate);
      return choices && choices.length * 2 <= (await rowCount(name)) ? choices : null;
    };
    const related: RelatedTable[] = [];
    for (const join of referencing) {
      const columns = schema.get(join.fromTable)!;
      const keyColumns = new Set([...joins.filter((other) => other.fromTable === join.fromTable).map((other) => other.fromColumn), keys.get(join.fromTable)]);
      const numeric = columns.filter((candidate) => NUMERIC.test(candidate.type) && !keyColumns.has(candidate.name) && !/(^id$|_id$)/i.test(candidate.name)).slice(0, MAX_CANDIDATE_COLUMNS);
      const time = timeColumn !== undefined ? columns.find((candidate) => candidate.name === timeColumn && (timeTable === undefined || timeTable === join.fromTable))?.name : columns.find((candidate) => TEMPORAL.test(candidate.type))?.name;
      const timeType = columns.find((candidate) => candidate.name === time)?.type ?? '';
      let midpoint: RelatedTable['midpoint'];
      if (time) {
        const temporal = TEMPORAL.test(timeType);
        const value = quote(time);
        // A day for dates and timestamps (a sentence then names it without a clock time), the value for numbers.
        const middle = temporal ? dialect.midpointDay(value) : dialect.text(dialect.round(`min(${value}) + ${dialect.double(`max(${value}) - min(${value})`)} / 2`, 0));
        const [row] = await rows(`SELECT ${middle} AS mid FROM ${quote(join.fromTable)}`);
        if (row?.mid) midpoint = temporal ? { sql: dialect.dateLiteral(String(row.mid)), text: String(row.mid) } : { sql: String(row.mid), text: String(row.mid) };
      }
      // Categories: the table's own text columns, then those of each table it references (by another column). Text
      // only: a boolean's most frequent value is a rate, and SQLite spells it 0/1 where the others say false/true.
      const categories: Category[] = [];
      const references = new Set(joins.filter((other) => other.fromTable === join.fromTable).map((other) => other.fromColumn));
      for (const candidate of columns) {
        if (categories.length >= MAX_CANDIDATE_COLUMNS || !TEXTUAL.test(candidate.type) || candidate.name === join.fromColumn || candidate.name === keys.get(join.fromTable)) continue;
        const choices = await categoryChoices(join.fromTable, candidate.name);
        if (choices) categories.push({ column: candidate.name, choices, references: references.has(candidate.name) });
      }
      for (const onward of joins.filter((other) => other.fromTable === join.fromTable && other.fromColumn !== join.fromColumn)) {
        for (const candidate of schema.get(onward.toTable) ?? []) {
          if (categories.length >= MAX_CANDIDATE_COLUMNS || !TEXTUAL.test(candidate.type) || candidate.name === onward.toColumn) continue;
          const choices = await categoryChoices(onward.toTable, candidate.name);
          const category: Category = { column: candidate.name, choices: choices ?? [], join: onward, references: true };
          if (choices && !(await repeatsCategory(rows, dialect, join.fromTable, category, categories))) categories.push(category);
        }
      }
      const calendar = /^TIMESTAMP/i.test(timeType) ? 'timestamp' : TEMPORAL.test(timeType) ? 'date' : undefined;
      related.push({ table: join.fromTable, column: join.fromColumn, numeric, time, calendar, midpoint, categories });
    }
    if (related.length === 0) {
      throw new SandboxError('invalid-input', `--entity ${options.entity}: no table references ${table}.${column} (no declared foreign key, and no column whose name and values match it)`);
    }
    const lookups: Array<{ column: string; choices: string[] }> = [];
    for (const candidate of own) {
      if (candidate.name === column || !CATEGORICAL.test(candidate.type) || lookups.length >= 2) continue;
      const choices = await categoryChoices(table, candidate.name);
      if (choices) lookups.push({ column: candidate.name, choices });
    }
    const kind = singular(table);
    const shared = memoized(rows);
    const first = related[0]!;
    const peers = new Map<RelatedTable, number>();
    for (const entry of related) peers.set(entry, Number((await rows(`SELECT count(DISTINCT ${quote(entry.column)}) AS n FROM ${quote(entry.table)}`))[0]?.n ?? 0));
    const scenario = postgres ? new URL(db).pathname.slice(1) || 'postgres' : path.basename(db).replace(/\.[^.]+$/, '');
    const out = path.resolve(options.out);
    const spec: ScenarioSpec = {
      database: scenario,
      taskPrefix: `ddr-${scenario.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      domain: scenario,
      entityKind: kind,
      entityKey: { table, column },
      // Entities that have rows in the first related table, by id.
      entitiesSql: `SELECT DISTINCT e.${quote(column)} FROM ${quote(table)} e JOIN ${quote(first.table)} r ON r.${quote(first.column)} = e.${quote(column)} ORDER BY 1`,
      query: (id) => `Analyze ${kind} ${id}. Explore the database, find what characterises this ${kind}, and end with FINISH: and your findings.`,
      facts: (id) => {
        const mine = `${quote(column)} = ${literal(id)}`;
        return [
          ...lookups.map(
            (lookup): FactTemplate => ({
              id: `${table}-${lookup.column}`,
              kind: 'lookup',
              question: `What is the ${words(lookup.column)} of ${kind} ${id}?`,
              answer_type: 'category',
              choices: lookup.choices,
              sql: `SELECT ${dialect.text(quote(lookup.column))} FROM ${quote(table)} WHERE ${mine}`,
              statement: (answer) => `Its ${words(lookup.column)} is ${answer}.`,
            }),
          ),
          ...related.flatMap((entry) => relatedFacts(dialect, kind, id, entry, peers.get(entry)!, shared, entry === first)),
        ];
      },
      // A URL as it is (a task file keeps it), a file relative to the suite.
      environment: { servers: [{ name: 'sql', options: { dbPath: postgres ? db : path.relative(out, db) || path.basename(db) } }] },
      minFacts: 4,
      askStrongest: ASK_STRONGEST,
      generator: 'sandbox ddr scaffold',
    };
    const tasks = await generateDdrTasks(spec, rows, options.count);
    if (tasks.length === 0) throw new SandboxError('invalid-input', `--entity ${options.entity}: no ${kind} has enough facts for a task (at least 4, half of them insights)`);
    await mkdir(out, { recursive: true });
    const files: string[] = [];
    for (const task of tasks) {
      const file = path.join(out, `${task.id}.json`);
      await writeFile(file, `${JSON.stringify(task, null, 2)}\n`);
      files.push(file);
    }
    return { tasks, files };
  }, SCAFFOLD_MEMORY_BYTES);
}
