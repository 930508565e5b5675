import { SandboxError } from '../sandbox-error.ts';
import type { ChatMessage } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import type { Model, ModelRequest, ModelResponse } from './model.ts';
import { nextRound, playbackMessage } from './playback-message.ts';
import { FINISH_PREFIX } from '../schemas/ddr-messages.ts';

const QUERY_TOOL = 'execute_query';
// One row per table, so a row limit on results never hides a table.
const SCHEMA_SQL =
  "SELECT table_name, string_agg(column_name || '::' || data_type, ' | ' ORDER BY ordinal_position) AS columns " +
  "FROM information_schema.columns WHERE table_schema = 'main' GROUP BY table_name ORDER BY table_name";

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

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|FLOAT|DOUBLE|REAL|DECIMAL.*|U?(TINY|SMALL|BIG)?INT.*)$/i;
const TEMPORAL = /^(DATE|TIMESTAMP.*)$/i;
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const words = (name: string) => name.replaceAll('_', ' ');
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

function formatValue(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
  return value === null || value === undefined ? 'none' : String(value);
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

/**
 * The probes for one entity: per table that has the entity's key column, a profile (rows and numeric ranges),
 * group-bys on its categorical columns, average gaps between its date columns, and first-to-last trends of
 * numeric columns over time (per category when a small categorical column is present).
 */
export function planProbes(schema: Map<string, Column[]>, keyColumn: string, entityId: string): Probe[] {
  const probes: Probe[] = [];
  for (const [table, columns] of schema) {
    if (!columns.some((column) => column.name === keyColumn)) continue;
    const where = `WHERE ${quote(keyColumn)} = ${literal(entityId)}`;
    const numeric = columns.filter((column) => NUMERIC.test(column.type) && !column.name.endsWith('_id'));
    const temporal = columns.filter((column) => TEMPORAL.test(column.type));
    const categorical = columns.filter(
      (column) => /^(VARCHAR|BOOLEAN)$/i.test(column.type) && column.name !== keyColumn && !/(_id|text|name|description|transcript|notes?)$/.test(column.name),
    );
    const labelled = columns.filter((column) => /^VARCHAR$/i.test(column.type) && /(name|description)$/.test(column.name) && column.name !== 'name');
    probes.push({
      sql: `SELECT count(*) AS row_count${numeric.map((column) => `, avg(${quote(column.name)}) AS ${quote(`avg_${column.name}`)}, min(${quote(column.name)}) AS ${quote(`min_${column.name}`)}, max(${quote(column.name)}) AS ${quote(`max_${column.name}`)}`).join('')} FROM ${quote(table)} ${where}`,
      intent: `profile ${table}`,
      describe: ([row]) =>
        row
          ? [`${entityId} has ${formatValue(row.row_count)} rows in ${words(table)}.`, ...numeric.map((column) => `In ${words(table)}, average ${words(column.name)} is ${formatValue(row[`avg_${column.name}`])} (min ${formatValue(row[`min_${column.name}`])}, max ${formatValue(row[`max_${column.name}`])}).`)].join(' ')
          : `No ${words(table)} rows for ${entityId}.`,
    });
    for (const column of [...categorical, ...labelled]) {
      probes.push({
        sql: `SELECT ${quote(column.name)} AS value, count(*) AS n FROM ${quote(table)} ${where} GROUP BY 1 ORDER BY n DESC, value LIMIT 12`,
        intent: `${column.name} in ${table}`,
        describe: (rows) =>
          rows.length === 0
            ? `No ${words(column.name)} recorded in ${words(table)}.`
            : `Most frequent ${words(column.name)} in ${words(table)}: ${formatValue(rows[0]!.value)} (${formatValue(rows[0]!.n)} of ${rows.reduce((sum, row) => sum + Number(row.n), 0)}). All ${words(column.name)} values in ${words(table)}: ${rows.map((row) => formatValue(row.value)).join(', ')}.`,
      });
    }
    for (let index = 1; index < temporal.length; index += 1) {
      const [start, end] = [temporal[index - 1]!, temporal[index]!];
      probes.push({
        sql: `SELECT avg(date_diff('day', ${quote(start.name)}, ${quote(end.name)})) AS days FROM ${quote(table)} ${where}`,
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
        const by = group ? `${quote(group.name)} AS grp, ` : '';
        probes.push({
          sql: `SELECT ${by}arg_min(${quote(column.name)}, ${quote(time.name)}) AS first_value, arg_max(${quote(column.name)}, ${quote(time.name)}) AS last_value, count(*) AS n FROM ${quote(table)} ${where}${group ? ' GROUP BY 1 ORDER BY 1' : ''}`,
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
  return probes;
}

/** The entity a DDR task studies: its kind and id (from the task, else from its query "Analyze <kind> <id>"). */
function entityOf(task: Task): { kind: string; id: string } {
  if (task.style === 'ddr') return task.grading.entity;
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
  let probes: Probe[] | null = null;
  const insights: string[] = [];

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
        if (probes === null) {
          const schema = new Map<string, Column[]>();
          for (const row of rows) {
            const columns = String(row.columns ?? '').split(' | ').map((entry) => entry.split('::'));
            schema.set(String(row.table_name), columns.filter(([name]) => name).map(([name, type]) => ({ name: name!, type: type ?? '' })));
          }
          const keys = [...new Set([...schema.values()].flat().map((column) => column.name))];
          // The entity's key: <kind>_id, else a column named after the kind (calls.queue), else any <kind>…_id.
          const key =
            keys.find((name) => name === `${entity.kind}_id`) ??
            keys.find((name) => name === entity.kind) ??
            keys.find((name) => name.startsWith(entity.kind) && name.endsWith('_id')) ??
            `${entity.kind}_id`;
          probes = planProbes(schema, key, entity.id);
          said = `The database has ${schema.size} tables; ${probes.length} probes of the ${words(key)} ${entity.id} are planned.`;
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
      const next = probes === null ? { sql: SCHEMA_SQL, intent: 'the schema' } : probes[0];
      if (next && round < maxRounds - 1) return reply(said || `I start by reading the schema to analyze ${entity.kind} ${entity.id}.`, next.sql);
      return finish();
    },
  };
}
