import { constraintStatuses } from '../../../src/validator/constraint-status.ts';
import { ConstraintSchema, type Constraint } from '../../../src/schemas/constraint.ts';
import type { TrajectoryEvent } from '../../../src/schemas/event.ts';
import type { Step, Verdict } from '../../../src/schemas/step.ts';
import type { ToolSpec } from '../../../src/schemas/tool-spec.ts';

/** Parses a constraint as a task file would (defaults applied, params checked). */
export function constraint(id: string, category: string, params?: unknown): Constraint {
  return ConstraintSchema.parse(params === undefined ? { id, category } : { id, category, params });
}

let callCounter = 0;
/** A tool-calls step; each call is [name, arguments JSON text?], ids c1, c2, … unless given as [name, args, id]. */
export function calls(round: number, ...list: Array<[string, string?, string?]>): Step {
  return {
    kind: 'tool-calls',
    round,
    calls: list.map(([name, args, id]) => ({ id: id ?? `c${++callCounter}`, name, arguments: args ?? '{}' })),
  };
}

export function answer(round: number, content: string): Step {
  return { kind: 'final-answer', round, content };
}

/** The constraint-check events a trajectory would hold for these steps and verdicts. */
export function checkEvents(steps: readonly Step[], verdicts: readonly Verdict[][]): TrajectoryEvent[] {
  return steps.map((step, index) => ({
    schemaVersion: 1,
    seq: index,
    time: '2026-11-29T00:00:00.000Z',
    type: 'constraint-check',
    step,
    verdicts: verdicts[index] ?? [],
    enforcement: 'block',
    durationMs: 0,
  }));
}

export function statusOf(constraints: Constraint[], steps: Step[], verdicts: Verdict[][]): Record<string, string> {
  return constraintStatuses(constraints, checkEvents(steps, verdicts));
}

/** Nine tools in CCTU's style, with nested objects, arrays, enums and ranges in their schemas. */
export const TOOLS: ToolSpec[] = [
  {
    name: 'historical_event_retriever',
    description: 'events of a year',
    parameters: {
      type: 'object',
      properties: { year: { type: 'integer', minimum: 1000, maximum: 2100 }, region: { type: 'string', enum: ['europe', 'asia', 'americas'] } },
      required: ['year'],
    },
  },
  {
    name: 'geographical_area_calculator',
    description: 'area of a place',
    parameters: {
      type: 'object',
      properties: {
        place: { type: 'string', minLength: 2 },
        unit: { type: 'string', enum: ['km2', 'mi2'] },
        options: { type: 'object', properties: { precision: { type: 'integer', minimum: 0, maximum: 6 } }, required: ['precision'] },
      },
      required: ['place'],
    },
  },
  {
    name: 'author_book_finder',
    description: 'books of an author',
    parameters: { type: 'object', properties: { author: { type: 'string' }, tags: { type: 'array', items: { type: 'string' }, maxItems: 3 } }, required: ['author'] },
  },
  { name: 'award_winner_retriever', description: 'award winners', parameters: { type: 'object', properties: { award: { type: 'string' }, year: { type: 'integer' } }, required: ['award'] } },
  { name: 'literary_author_identifier', description: 'who wrote it', parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
  { name: 'urban_forest_locator', description: 'urban forests', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { name: 'cultural_geography_locator', description: 'cultural places', parameters: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] } },
  { name: 'paleontological_discovery_locator', description: 'fossils', parameters: { type: 'object', properties: { species: { type: 'string' } }, required: ['species'] } },
  { name: 'product_specification_retriever', description: 'specs', parameters: { type: 'object', properties: { product: { type: 'string' }, fields: { type: 'array', items: { type: 'string', enum: ['size', 'weight', 'price'] } } } } },
];
