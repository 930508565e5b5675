import type { z } from 'zod';
import type { Environment } from '../../src/schemas/environment.ts';
import type { QueryRows } from '../../mcp-servers/sql/backends/read-catalog.ts';
import type { ChecklistItem, ChecklistItemSchema, EffectKind } from '../../src/schemas/checklist.ts';
import type { MeasuredEffect } from './effect-size.ts';

/**
 * A candidate fact ranked by effect size (effect-size.ts): its kind, the candidate it belongs to (the items of one
 * candidate, such as a trend's change and direction, share it and are asked or left together) and how to measure its
 * size, the size's lower confidence bound and the rows behind it in the database (null: not measurable, never asked).
 */
export interface EffectCandidate {
  kind: EffectKind;
  group: string;
  measure(rows: QueryRows): Promise<MeasuredEffect | null>;
}

/** One checklist fact of an entity, before its answer is computed from the database. */
export interface FactTemplate extends Omit<z.input<typeof ChecklistItemSchema>, 'answer' | 'verification_sql' | 'effect'> {
  sql: string;
  /** SQL returning the tolerance (one number) when it depends on the entity's data (e.g. half a percent of the value). */
  toleranceSql?: string;
  /** SQL returning one row with TRUE when the fact is ambiguous for this entity (a tie, no data): the fact is dropped. */
  ambiguousSql?: string;
  /** The sentence that states the fact (the reference trajectory's insight and FINISH line). */
  statement(answer: ChecklistItem['answer']): string;
  /** Set on a candidate fact: asked only when its effect passes its kind's threshold and ranks among the strongest. */
  effect?: EffectCandidate;
}

/** A DDR scenario: a database, the kind of entity studied in it, and the facts checked for each entity. */
export interface ScenarioSpec {
  database: string;
  /** Task ids are `<taskPrefix>-<entity id, lower case>`. */
  taskPrefix: string;
  domain: string;
  entityKind: string;
  /** Entities worth a task, in id order (the generator takes the first `count`). */
  entitiesSql: string;
  /** The task's query, DDR-Bench style. */
  query(entityId: string): string;
  /** SQL returning one row of facts about the entity the templates depend on (e.g. which lab test it has). */
  contextSql?(entityId: string): string;
  facts(entityId: string, context: Record<string, string>): FactTemplate[];
  /** The task's environment (default: the sql server on the generated database `database`). */
  environment?: Environment;
  /** The table and column whose values identify an entity (recorded in the task for agents that follow keys). */
  entityKey?: { table: string; column: string };
  /** Fewest items a task may have (default MIN_FACTS). */
  minFacts?: number;
  /** Candidates (facts with `effect`) asked per entity: the strongest this many, by effect strength (default: all that pass). */
  askStrongest?: number;
  /** What the task's metadata names as its generator. */
  generator?: string;
  /** Default size options for the build (small: seconds). */
  buildOptions?: Record<string, unknown>;
}

/** Formats a set answer for a sentence. */
export function listText(answer: ChecklistItem['answer']): string {
  return Array.isArray(answer) ? answer.join(', ') : String(answer);
}

/** 1 → "1st", 22 → "22nd", 13 → "13th". */
export function ordinal(value: unknown): string {
  const number = Number(value);
  const suffix = number % 100 >= 11 && number % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][number % 10] ?? 'th');
  return `${number}${suffix}`;
}
