import type { Plan } from '../schemas/plan.ts';
import { stripPlaceholders } from './placeholders.ts';
import { frameShapeOf } from './step-frame.ts';

/**
 * A plan's analysis skeleton, read from the plan alone (never from a generator's labels), so that two plans differing
 * only in a value or a grouping column count once:
 * - `head`: the head analysis, the first step's words without placeholders (what the plan finds first, and how);
 * - `tools`: each step's tool and the steps it depends on, in plan order ("T2S T2S<1 RAG<2 … LLM<1,4,5");
 * - `key`: the skeleton itself — the head, and each step's tool with, for a T2S step, what its lead words say it
 *   returns (`frameShapeOf`: ids, top, compare, change, count-by, moments…), with its dependencies.
 * The skeleton count of `tasks --stats` and the suite test's "at least 40" both count distinct keys.
 */
export interface PlanSkeleton {
  head: string;
  tools: string;
  key: string;
}

export function planSkeleton(plan: Plan): PlanSkeleton {
  const first = plan.steps[0];
  const head = first ? stripPlaceholders(first.prompt).replace(/\s+/g, ' ').trim() : '';
  const dependencies = (ids: number[]): string => (ids.length > 0 ? `<${ids.join(',')}` : '');
  const tools = plan.steps.map((step) => `${step.tool}${dependencies(step.depends_on)}`).join(' ');
  const shaped = plan.steps
    .map((step) => `${step.tool}${step.tool === 'T2S' ? `:${frameShapeOf(step.prompt) ?? 'unread'}` : ''}${dependencies(step.depends_on)}`)
    .join(' ');
  return { head, tools, key: `${head} | ${shaped}` };
}
