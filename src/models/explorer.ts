import { SandboxError } from '../sandbox-error.ts';
import type { ChatMessage } from '../schemas/message.ts';
import { isDdrTask, type Task } from '../schemas/task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import type { Model, ModelRequest, ModelResponse } from './model.ts';
import { nextRound, playbackMessage } from './playback-message.ts';
import { FINISH_PREFIX } from '../schemas/ddr-messages.ts';
import {
  confirmedJoins,
  containmentCandidates,
  declaredKeys,
  entityScopes,
  CATEGORICAL,
  literal,
  mergeJoins,
  nameCandidates,
  NUMERIC,
  overlapSql,
  quote,
  tableKeys,
  TEMPORAL,
  TEXTUAL,
  uniqueColumnsSql,
  withUniqueKeys,
  words,
  type EntityScope,
  type JoinColumn,
} from '../../mcp-servers/sql/backends/join-columns.ts';
import { dialectNamed, dialectOf, type SqlDialect } from '../../mcp-servers/sql/backends/dialect.ts';

const QUERY_TOOL = 'execute_query';

interface Column {
  name: string;
  type: string;
}

/** A query the explorer plans, and how to turn its result into an insight sentence. */
interface Probe {
  sql: string;
  intent: string;
  describe(rows: Array<Record<string, unknown>>): string;
}


function formatValue(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
  return value === null || value === undefined ? 'none' : String(value);
}

/**
 * A value of a column as its declared type means it: SQLite keeps a BOOLEAN column's values as 1 and 0, which
 * would read as numbers ("most frequent resolved: 1" states a count to a grader); true and false, as on the other
 * engines.
 */
function columnValue(value: unknown, type: string): string {
  return /^BOOL/i.test(type) && (value === 0 || value === 1) ? String(value === 1) : formatValue(value);
}

/** Rows of the SQL server's JSON result (`{ columns: [{name}], rows: [[…]] }`) as objects; [] for anything else. */
export function resultRows(content: string): Array<Record<string, unknown>> {
  try {
    const parsed = JSON.parse(content) as { columns?: Array<{ name: string }>; rows?: unknown[][] };
    if (!Array.isArray(parsed.columns) || !Array.isArray(parsed.rows)) return [];
    return parsed.rows.map((row) => Object.fromEntries(parsed.columns!.map((column, index) => [column.name, row[index]])));
  } catch {
    return [];
  }
}

const PROBE_ORDER = ['profile', 'gap', 'trend', 'values', 'peers'] as const;

/**
 * The probes for one entity, over every scope that holds rows about it (its own table, the tables referencing its
 * key, the tables those rows reference, the tables two hops away): per scope a profile (rows and numeric ranges),
 * its rank and z-score among all entities on each numeric column of the tables keyed by it, group-bys on
 * categorical columns, average gaps between date columns, and first-to-last trends of numeric columns over time
 * (per category when a small categorical column is present). Profiles come first, so a short budget still
 * reaches every related table.
 */
export function planProbes(
  schema: Map<string, Column[]>,
  scopes: readonly EntityScope[],
  entityId: string,
  peerKeys: ReadonlyMap<string, string> = new Map(),
  references: ReadonlySet<string> = new Set(),
  dialect: SqlDialect = dialectOf('duckdb'),
): Probe[] {
  const probes: Array<Probe & { order: number }> = [];
  const add = (kind: (typeof PROBE_ORDER)[number], probe: Probe) => probes.push({ ...probe, order: PROBE_ORDER.indexOf(kind) });
  for (const scope of scopes) {
    const columns = schema.get(scope.table) ?? [];
    const table = scope.table;
    // The rows in words, with the role of the column that selects them ("trips with start station S000").
    const selecting = /^t\."((?:[^"]|"")+)" = /.exec(scope.where)?.[1]?.replaceAll('""', '"');
    const rowsText = selecting && !scope.from.includes(' JOIN ') && peerKeys.get(table) !== selecting ? `${words(table)} with ${words(selecting)} ${entityId}` : words(table);
    const from = `FROM ${scope.from} WHERE ${scope.where}`;
    const col = (name: string) => `t.${quote(name)}`;
    const keyColumns = new Set(peerKeys.values());
    // References to other tables (trips.bike → bikes) are ids, not measures.
    const numeric = columns.filter((column) => NUMERIC.test(column.type) && !column.name.endsWith('_id') && column.name !== 'id' && !keyColumns.has(column.name) && !references.has(`${table}.${column.name}`));
    const temporal = columns.filter((column) => TEMPORAL.test(column.type));
    const categorical = columns.filter(
      (column) => CATEGORICAL.test(column.type) && !keyColumns.has(column.name) && column.name !== 'id' && !/(_id|text|name|description|transcript|notes?)$/.test(column.name),
    );
    const labelled = columns.filter((column) => TEXTUAL.test(column.type) && /(name|description)$/.test(column.name) && column.name !== 'name');
    add('profile', {
      sql: `SELECT count(*) AS row_count${numeric.map((column) => `, avg(${col(column.name)}) AS ${quote(`avg_${column.name}`)}, min(${col(column.name)}) AS ${quote(`min_${column.name}`)}, max(${col(column.name)}) AS ${quote(`max_${column.name}`)}`).join('')} ${from}`,
      intent: `profile ${table}`,
      describe: ([row]) =>
        row
          ? [
              rowsText === words(table) ? `${entityId} has ${formatValue(row.row_count)} rows in ${words(table)}.` : `There are ${formatValue(row.row_count)} ${rowsText}.`,
              ...numeric.map((column) => `${rowsText === words(table) ? `In ${words(table)}, average ${words(column.name)}` : `The average ${words(column.name)} of the ${rowsText}`} is ${formatValue(row[`avg_${column.name}`])} (min ${formatValue(row[`min_${column.name}`])}, max ${formatValue(row[`max_${column.name}`])}).`),
            ].join(' ')
          : `No ${words(table)} rows for ${entityId}.`,
    });
    // Peers: only where the scope selects rows by a column of the table itself (one hop), every value of which is an entity.
    const peerColumn = /^t\."((?:[^"]|"")+)" = /.exec(scope.where)?.[1]?.replaceAll('""', '"');
    if (peerColumn && !scope.from.includes(' JOIN ')) {
      for (const column of numeric) {
        add('peers', {
          sql:
            `WITH g AS (SELECT ${quote(peerColumn)} AS k, avg(${quote(column.name)}) AS v FROM ${quote(table)} GROUP BY 1), s AS (SELECT avg(v) AS m, ${dialect.stddevSampOver('v', 'g')} AS sd, count(*) AS n FROM g) ` +
            `SELECT (SELECT count(*) FROM g WHERE v > g0.v) + 1 AS rank_highest, s.n AS peers, (g0.v - s.m) / nullif(s.sd, 0) AS z FROM g AS g0, s WHERE g0.k = ${literal(entityId)}`,
          intent: `${column.name} among all ${words(peerColumn)} values`,
          describe: ([row]) =>
            row
              ? `By average ${words(column.name)} of the ${rowsText}, ${entityId} ranks ${ordinalText(Number(row.rank_highest))} highest of ${formatValue(row.peers)}; its average is ${formatValue(Math.abs(Number(row.z)))} standard deviations ${Number(row.z) < 0 ? 'below' : 'above'} the mean of all of them.`
              : `${entityId} has no ${words(column.name)} in ${words(table)} to compare.`,
        });
      }
    }
    for (const column of [...categorical, ...labelled]) {
      add('values', {
        sql: `SELECT ${col(column.name)} AS value, count(*) AS n ${from} GROUP BY 1 ORDER BY n DESC, value LIMIT 12`,
        intent: `${column.name} in ${table}`,
        describe: (rows) =>
          rows.length === 0
            ? `No ${words(column.name)} recorded in ${words(table)}.`
            : `Most frequent ${words(column.name)} in the ${rowsText}: ${columnValue(rows[0]!.value, column.type)} (${formatValue(rows[0]!.n)} of ${rows.reduce((sum, row) => sum + Number(row.n), 0)}). All ${words(column.name)} values in ${words(table)}: ${rows.map((row) => columnValue(row.value, column.type)).join(', ')}.`,
      });
    }
    for (let index = 1; index < temporal.length; index += 1) {
      const [start, end] = [temporal[index - 1]!, temporal[index]!];
      add('gap', {
        sql: `SELECT avg(${dialect.daysBetween(col(start.name), col(end.name))}) AS days ${from}`,
        intent: `${start.name} to ${end.name}`,
        describe: ([row]) =>
          row?.days === null || row?.days === undefined
            ? `In ${words(table)}, ${words(end.name)} is never set.`
            : `In ${words(table)}, the average time from ${words(start.name)} to ${words(end.name)} is ${formatValue(row.days)} days.`,
      });
    }
    const time = temporal[0] ?? columns.find((column) => /year|period|month/.test(column.name) && NUMERIC.test(column.type));
    // Trends are per series: a lab test, a segment, a metric — the labelled column when there is one.
    const group =
      [...labelled, ...categorical].find((column) => /(test|segment|metric|series)/.test(column.name)) ??
      labelled[0] ??
      categorical.find((column) => /(type|kind)$/.test(column.name));
    if (time) {
      for (const column of numeric.filter((candidate) => candidate.name !== time.name)) {
        const by = group ? `${col(group.name)} AS grp, ` : '';
        add('trend', {
          sql: `SELECT ${by}${dialect.argMin(col(column.name), col(time.name))} AS first_value, ${dialect.argMax(col(column.name), col(time.name))} AS last_value, count(*) AS n ${from}${group ? ' GROUP BY 1 ORDER BY 1' : ''}`,
          intent: `trend of ${column.name} over ${time.name}`,
          describe: (rows) =>
            rows
              .filter((row) => Number(row.n) > 1)
              .map((row) => {
                const first = Number(row.first_value);
                const last = Number(row.last_value);
                const direction = Math.abs(last - first) <= Math.abs(first) * 0.05 ? 'stayed about the same' : last > first ? 'increased' : 'decreased';
                const subject = group ? `${formatValue(row.grp)} ${words(column.name)}` : words(column.name);
                return `${subject} ${direction} from ${formatValue(first)} to ${formatValue(last)} over ${formatValue(row.n)} records; the latest ${subject} is ${formatValue(last)}.`;
              })
              .join(' ') || `No ${words(column.name)} series with more than one record.`,
        });
      }
    }
  }
  return probes.sort((a, b) => a.order - b.order).map(({ order: _order, ...probe }) => probe);
}

function ordinalText(value: number): string {
  const suffix = value % 100 >= 11 && value % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][value % 10] ?? 'th');
  return `${value}${suffix}`;
}

/**
 * Where the entity's id is stored: the task's `entity.key` when it names one, else the key of a table named after
 * the kind (agent → agents.agent_id), else a column named `<kind>_id` or `<kind>` (calls.queue) in the first table
 * that has one.
 */
export function entityKey(entity: { kind: string; key?: { table: string; column: string } }, schema: ReadonlyMap<string, readonly Column[]>, keys: ReadonlyMap<string, string>): { table: string; column: string } | null {
  if (entity.key && schema.has(entity.key.table)) return entity.key;
  const kind = entity.kind.toLowerCase();
  for (const [table, key] of keys) {
    const lower = table.toLowerCase();
    if (lower === kind || lower === `${kind}s` || lower === `${kind}es` || lower === `${kind.replace(/y$/, '')}ies`) return { table, column: key };
  }
  for (const name of [`${kind}_id`, kind]) {
    for (const [table, columns] of schema) if (columns.some((column) => column.name === name)) return { table, column: name };
  }
  return null;
}

/** The entity a DDR task studies: its kind and id (from the task, else from its query "Analyze <kind> <id>"). */
function entityOf(task: Task): { kind: string; id: string; key?: { table: string; column: string } } {
  if (isDdrTask(task)) return task.grading.entity;
  const match = /analy[sz]e\s+(?:the\s+)?(\w+)\s+([\w-]+)/i.exec(task.query);
  if (!match) throw new SandboxError('invalid-input', `explorer: task ${task.id} names no entity to analyze ("Analyze <kind> <id>")`);
  return { kind: match[1]!.toLowerCase(), id: match[2]! };
}

/**
 * `explorer`: a model-free DDR agent. It reads the schema through `execute_query`, then runs mechanical probes
 * on every table keyed by the entity (profiles, group-bys, date gaps, trends over time), writes one templated
 * insight per result, and ends with FINISH listing them all — one tool call per turn, within the task's rounds.
 * It shows how much of the checklist rote exploration reaches, and makes DDR suites runnable offline.
 */
export function createExplorerModel(context: { task: Task; tools: readonly ToolSpec[] }): Model {
  const { task, tools } = context;
  const entity = entityOf(task);
  const queryTool = tools.find((tool) => tool.name === QUERY_TOOL);
  if (!queryTool) throw new SandboxError('invalid-input', `explorer: task ${task.id} has no ${QUERY_TOOL} tool (it needs the sql server)`);
  const properties = (queryTool.parameters.properties ?? {}) as Record<string, { type?: string }>;
  const argument = Object.entries(properties).find(([, schema]) => schema.type === 'string')?.[0] ?? 'sql';
  const maxRounds = task.limits.maxRounds;
  // The engine the server says its SQL is in ("one SELECT … in the SQLite dialect"); DuckDB when it names none.
  const dialect = dialectNamed([queryTool.description ?? '', ...Object.values(properties).map((schema) => String((schema as { description?: unknown }).description ?? ''))].join(' '));
  let probes: Probe[] | null = null;
  let schema: Map<string, Column[]> | null = null;
  let declared: ReturnType<typeof declaredKeys> | null = null;
  /** Whether the keys are settled (the all-distinct columns of tables without one were asked for, when needed). */
  let keyed = false;
  let keys = new Map<string, string>();
  let candidates: JoinColumn[] = [];
  let joins: JoinColumn[] = [];
  let pending: { sql: string; intent: string } | null = null;
  const insights: string[] = [];
  /** The probes over every scope that holds rows about the entity. */
  function planFor(): Probe[] {
    const key = entityKey(entity, schema!, keys);
    if (!key) return [];
    const scopes = keys.get(key.table) === key.column
      ? entityScopes(key, entity.id, joins, keys)
      // The id is a plain column (calls.queue): every table with that column, selected by it.
      : [...schema!].filter(([, columns]) => columns.some((column) => column.name === key.column)).map(([table]) => ({ table, from: `${quote(table)} AS t`, where: `t.${quote(key.column)} = ${literal(entity.id)}`, via: `${table} by ${key.column}` }));
    return planProbes(schema!, scopes, entity.id, keys, new Set(joins.map((join) => `${join.fromTable}.${join.fromColumn}`)), dialect);
  }

  return {
    spec: 'explorer',
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const round = nextRound(request.messages);
      const last = request.messages.at(-1);
      const lastResult = last?.role === 'tool' ? (last as Extract<ChatMessage, { role: 'tool' }>) : undefined;
      const reply = (content: string, sql?: string): ModelResponse => ({
        message: sql === undefined ? { role: 'assistant', content } : playbackMessage({ content, toolCalls: [{ name: QUERY_TOOL, arguments: { [argument]: sql } }] }, round),
        usage: {},
        latencyMs: performance.now() - started,
      });
      function finish(): ModelResponse {
        return reply(`${FINISH_PREFIX} Findings for ${entity.kind} ${entity.id}:\n${insights.map((line) => `- ${line}`).join('\n')}`);
      }
      // A user message after the start is the protocol asking for the summary (or a notice): finish with what we have.
      if (round > 1 && last?.role === 'user') return finish();
      let said = '';
      if (round > 1 && lastResult) {
        const rows = resultRows(lastResult.content);
        if (schema === null) {
          schema = new Map<string, Column[]>();
          for (const row of rows) {
            const columns = String(row.columns ?? '').split(' | ').map((entry) => entry.split('::'));
            schema.set(String(row.table_name), columns.filter(([name]) => name).map(([name, type]) => ({ name: name!, type: type ?? '' })));
          }
          said = `The database has ${schema.size} tables; next I look for the keys that connect them.`;
          pending = { sql: dialect.keysSql, intent: 'declared keys' };
        } else if (declared === null || !keyed) {
          if (declared === null) {
            declared = declaredKeys(rows);
            keys = tableKeys(schema, declared.keys);
            const uniqueSql = uniqueColumnsSql(schema, keys);
            // Tables with no key by declaration or name: their all-distinct columns are asked for first.
            if (uniqueSql !== null) pending = { sql: uniqueSql, intent: 'all-distinct columns of tables without a key' };
            keyed = uniqueSql === null;
            said = `${declared.joins.length} foreign keys are declared${keyed ? '' : `; ${[...schema.keys()].filter((table) => !keys.has(table)).length} tables have no key by declaration or name, so next I look for columns whose values are all distinct`}.`;
          } else {
            keys = withUniqueKeys(schema, keys, lastResult.content.startsWith('{') ? rows : []);
            keyed = true;
          }
          if (keyed) {
            const byName = nameCandidates(schema, keys).filter((candidate) => !declared!.joins.some((join) => join.fromTable === candidate.fromTable && join.fromColumn === candidate.fromColumn));
            candidates = [...byName, ...containmentCandidates(schema, keys, [...declared.joins, ...byName])];
            said = `${said ? `${said} ` : ''}${byName.length} columns look like references by name, and ${candidates.length - byName.length} more could be by their values; next I check their values against the keys.`;
            pending = candidates.length > 0 ? { sql: overlapSql(candidates, dialect), intent: 'value overlap of join candidates' } : null;
            if (!pending) {
              joins = declared.joins;
              probes = planFor();
            }
          }
        } else if (probes === null) {
          const found = lastResult.content.startsWith('{') ? confirmedJoins(candidates, rows) : [];
          joins = mergeJoins(declared.joins, found);
          probes = planFor();
          said = `Joins: ${joins.map((join) => `${join.fromTable}.${join.fromColumn} → ${join.toTable}.${join.toColumn}`).join(', ') || 'none'}; ${probes.length} probes of ${entity.kind} ${entity.id} are planned.`;
        } else {
          const probe = probes.shift();
          if (probe && !lastResult.content.startsWith('{')) said = `The query on ${probe.intent} failed.`;
          else if (probe) {
            said = probe.describe(rows);
            insights.push(said);
          }
        }
      }
      // Keep one round for FINISH: the engine's turn limit counts this message too.
      const next = schema === null ? { sql: dialect.schemaSql, intent: 'the schema' } : probes === null ? pending : probes[0];
      if (next && round < maxRounds - 1) return reply(said || `I start by reading the schema to analyze ${entity.kind} ${entity.id}.`, next.sql);
      return finish();
    },
  };
}
