import type { DuckDBConnection } from '@duckdb/node-api';
import { ChecklistItemSchema, type ChecklistItem } from '../../src/schemas/checklist.ts';
import { DdrTaskSchema, type DdrTask } from '../../src/schemas/ddr-task.ts';
import type { ReferenceStep } from '../../src/schemas/reference-step.ts';
import { TASK_SCHEMA_VERSION } from '../../src/schemas/task-base.ts';
import type { QueryRows } from '../../mcp-servers/sql/backends/read-catalog.ts';
import { computeAnswer, rowsFrom } from './compute-answer.ts';
import { EFFECT_THRESHOLDS, effectStrength, type MeasuredEffect } from './effect-size.ts';
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

/**
 * Share of a checklist's items that are insights: of an insight kind (rank, trend, anomaly, relationship), or asked
 * for an effect size past its threshold (a dominant value or a peak hour stands out among the entity's own rows).
 */
export function insightShare(checklist: readonly ChecklistItem[]): number {
  return checklist.length === 0 ? 0 : checklist.filter((item) => INSIGHT_KINDS.has(item.kind) || item.effect !== undefined).length / checklist.length;
}

/**
 * The facts asked: every fact that is no candidate, in the templates' order, then the candidates' facts, at most
 * `limit` candidates, each with all its facts: first the strongest candidate of each kind (the largest trend, the
 * most dominant category, the peak hour, the peak weekday, the clearest outlier), strongest first, then the
 * strongest of the rest (ties: the templates' order).
 */
function strongest<T extends { group?: string; kind?: string; strength?: number }>(found: readonly T[], limit = Number.POSITIVE_INFINITY): T[] {
  const groups = new Map<string, { kind: string; strength: number }>();
  for (const entry of found) if (entry.group !== undefined && !groups.has(entry.group)) groups.set(entry.group, { kind: entry.kind!, strength: entry.strength! });
  const byStrength = [...groups].sort(([, a], [, b]) => b.strength - a.strength);
  const firstOfKind = byStrength.filter(([, candidate], index) => byStrength.findIndex(([, other]) => other.kind === candidate.kind) === index);
  const ranked = [...new Set([...firstOfKind, ...byStrength].map(([group]) => group))].slice(0, limit);
  return [...found.filter((entry) => entry.group === undefined), ...ranked.flatMap((group) => found.filter((entry) => entry.group === group))];
}

/**
 * Builds the DDR tasks of one scenario from its built database: for each entity, every fact's answer is computed
 * by its verification SQL; ambiguous facts (ties, no data) are dropped; candidate facts (with `effect`) whose
 * effect size's lower confidence bound is below their kind's threshold are dropped, and of the rest only the `askStrongest` strongest are asked; entities left with fewer than
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
    const found: Array<{ item: ChecklistItem; statement: string; group?: string; kind?: string; strength?: number }> = [];
    /** Each candidate's effect size, measured once for all its items. */
    const sizes = new Map<string, MeasuredEffect | null>();
    for (const { sql, ambiguousSql, toleranceSql, statement, effect, ...fields } of facts) {
      let measured: MeasuredEffect | null | undefined;
      if (effect) {
        if (!sizes.has(effect.group)) sizes.set(effect.group, await effect.measure(rows));
        measured = sizes.get(effect.group)!;
        // The lower confidence bound must pass: a large size on a handful of rows is not worth asking.
        if (measured === null || measured.lower < EFFECT_THRESHOLDS[effect.kind]) continue;
      }
      if (ambiguousSql) {
        const [row] = await rows(ambiguousSql);
        // SQLite has no boolean: its true is 1.
        if (row && (Object.values(row)[0] === true || Object.values(row)[0] === 1)) continue;
      }
      const answer = await computeAnswer(rows, { answer_type: fields.answer_type, verification_sql: sql });
      if (answer === null || (Array.isArray(answer) && answer.length === 0)) continue;
      const tolerance = toleranceSql ? Number(Object.values((await rows(toleranceSql))[0] ?? {})[0]) : fields.tolerance;
      const recorded = effect && measured ? { effect: { kind: effect.kind, size: Number(measured.size.toFixed(4)), lower: Number(measured.lower.toFixed(4)), rows: measured.rows } } : {};
      const item = ChecklistItemSchema.parse({ ...fields, ...(tolerance === undefined ? {} : { tolerance }), answer, verification_sql: sql, ...recorded });
      found.push({ item, statement: statement(answer), ...(effect && measured ? { group: effect.group, kind: effect.kind, strength: effectStrength(effect.kind, measured.lower) } : {}) });
    }
    const asked = strongest(found, spec.askStrongest);
    const checklist = asked.map((entry) => entry.item);
    const statements = asked.map((entry) => entry.statement);
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
