import type { DuckDBConnection } from '@duckdb/node-api';
import { ChecklistItemSchema, type ChecklistItem } from '../../src/schemas/checklist.ts';
import { DdrTaskSchema, type DdrTask } from '../../src/schemas/ddr-task.ts';
import type { ReferenceStep } from '../../src/schemas/reference-step.ts';
import { TASK_SCHEMA_VERSION } from '../../src/schemas/task-base.ts';
import type { QueryRows } from '../../mcp-servers/sql/backends/read-catalog.ts';
import { computeAnswer, rowsFrom } from './compute-answer.ts';
import type { ScenarioSpec } from './scenario-spec.ts';

/** The SQL server's query tool and its argument (mcp-servers/sql). */
export const QUERY_TOOL = 'execute_query';
const QUERY_ARGUMENT = 'sql';

/** DDR-Bench's setting: no question, an entity to investigate, one tool call per turn, FINISH to end. */
export const DDR_SYSTEM_PROMPT = [
  'You are a data scientist investigating one entity in a database you have not seen before.',
  'There is no question to answer: decide yourself what to explore, and find what characterises the entity.',
  'Call exactly one tool per turn. After each result, say in one or two sentences what you learned.',
  'When you are done, reply with a message starting "FINISH:" followed by your findings, with the concrete numbers, names and trends you found.',
].join('\n');

export const MIN_FACTS = 6;

/** Kinds of item that are insights rather than lookups or aggregates of the entity's own rows. */
export const INSIGHT_KINDS: ReadonlySet<ChecklistItem['kind']> = new Set(['rank', 'trend', 'anomaly', 'relationship']);

/** Share of a checklist's items that are insights (rank, trend, anomaly, relationship). */
export function insightShare(checklist: readonly ChecklistItem[]): number {
  return checklist.length === 0 ? 0 : checklist.filter((item) => INSIGHT_KINDS.has(item.kind)).length / checklist.length;
}

/**
 * Builds the DDR tasks of one scenario from its built database: for each entity, every fact's answer is computed
 * by its verification SQL; ambiguous facts (ties, no data) are dropped, and entities left with fewer than
 * MIN_FACTS facts, or with fewer than half of them insights, are skipped. Each task's reference trajectory runs each fact's SQL, says the fact found in
 * the next turn, and ends with FINISH listing all facts.
 */
export async function generateDdrTasks(spec: ScenarioSpec, source: DuckDBConnection | QueryRows, count: number): Promise<DdrTask[]> {
  const rows = rowsFrom(source);
  const entities = (await rows(spec.entitiesSql)).map((row) => String(Object.values(row)[0]));
  const tasks: DdrTask[] = [];
  for (const entityId of entities) {
    if (tasks.length >= count) break;
    const context = spec.contextSql ? ((await rows(spec.contextSql(entityId)))[0] ?? {}) : {};
    const facts = spec.facts(entityId, Object.fromEntries(Object.entries(context).map(([key, value]) => [key, String(value)])));
    const checklist: ChecklistItem[] = [];
    const statements: string[] = [];
    for (const { sql, ambiguousSql, toleranceSql, statement, ...fields } of facts) {
      if (ambiguousSql) {
        const [row] = await rows(ambiguousSql);
        // SQLite has no boolean: its true is 1.
        if (row && (Object.values(row)[0] === true || Object.values(row)[0] === 1)) continue;
      }
      const answer = await computeAnswer(rows, { answer_type: fields.answer_type, verification_sql: sql });
      if (answer === null || (Array.isArray(answer) && answer.length === 0)) continue;
      const tolerance = toleranceSql ? Number(Object.values((await rows(toleranceSql))[0] ?? {})[0]) : fields.tolerance;
      checklist.push(ChecklistItemSchema.parse({ ...fields, ...(tolerance === undefined ? {} : { tolerance }), answer, verification_sql: sql }));
      statements.push(statement(answer));
    }
    if (checklist.length < (spec.minFacts ?? MIN_FACTS) || insightShare(checklist) < 0.5) continue;
    const trajectory: ReferenceStep[] = checklist.map((item, index) => ({
      content: index === 0 ? `I start with the records of ${spec.entityKind} ${entityId}.` : statements[index - 1]!,
      toolCalls: [{ name: QUERY_TOOL, arguments: { [QUERY_ARGUMENT]: item.verification_sql } }],
    }));
    trajectory.push({ answer: `FINISH: Findings for ${spec.entityKind} ${entityId}:\n${statements.map((line) => `- ${line}`).join('\n')}` });
    const task = DdrTaskSchema.parse({
      schemaVersion: TASK_SCHEMA_VERSION,
      id: `${spec.taskPrefix}-${entityId.toLowerCase().replaceAll('_', '-')}`,
      style: 'ddr',
      title: `Analyze ${spec.entityKind} ${entityId}`,
      domain: spec.domain,
      system: DDR_SYSTEM_PROMPT,
      query: spec.query(entityId),
      environment: spec.environment ?? { servers: [{ name: 'sql' }], database: spec.database },
      limits: { maxRounds: 30 },
      reference: { trajectory },
      grading: { entity: { kind: spec.entityKind, id: entityId, ...(spec.entityKey ? { key: spec.entityKey } : {}) }, scenario: spec.database, checklist },
      metadata: { generator: spec.generator ?? 'episodes/ddr-generator', database: spec.database },
    });
    tasks.push(task);
  }
  return tasks;
}
