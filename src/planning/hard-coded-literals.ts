import type { PlanExecution } from '../schemas/plan-execution.ts';
import type { Plan } from '../schemas/plan.ts';
import { resultValues } from './run-plan.ts';

/** A step that writes out, as a literal, a value another step produces: it should refer to that step as "(k)". */
export interface HardCodedLiteral {
  stepId: number;
  /** The step whose output holds the value. */
  producerId: number;
  value: string;
  /** Where the literal was found: the step's prompt or its reference detail (SQL, retrieval filters). */
  where: 'prompt' | 'detail';
}

/** Values shorter than this, or plain numbers, are too common to say anything (counts, "no", "yes"). */
const MIN_VALUE_CHARS = 4;
/** Rows of an output whose values are compared: the entities a step finds are at the top of its result. */
const MAX_ROWS = 20;

/** The string values of a data step's output worth comparing: its rows' string cells, or a retrieval's call ids. */
function producedValues(output: string): string[] {
  const values = new Set<string>();
  try {
    const parsed = JSON.parse(output) as { rows?: unknown[][] };
    for (const row of parsed.rows?.slice(0, MAX_ROWS) ?? []) for (const cell of row) if (typeof cell === 'string') values.add(cell);
  } catch {
    // not JSON: nothing comparable
  }
  for (const value of resultValues(output).slice(0, MAX_ROWS)) values.add(value);
  return [...values].filter((value) => value.length >= MIN_VALUE_CHARS && !/^-?\d+(\.\d+)?$/.test(value));
}

/**
 * A step that measures every group without picking any ("Compute the change in mean QA score per rubric item…",
 * "Count the key moments …, by kind") finds no entity: its group labels ('resolution', 'greeting') are the domain's
 * words, which other steps may use as words ("the resolution rate"). A step that ranks ("return the …") finds one.
 */
const isDistribution = (prompt: string): boolean => /\bper\b|\bby kind\b/i.test(prompt) && !/\breturn the\b/i.test(prompt);

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Flags literals in a step that equal another data step's actual output (plan-sc-033's defect: a retrieval that
 * hard-codes the date step 1 is meant to find). `details` are the steps' reference SQL / retrieval, by step id.
 * Compared case-insensitively as whole words; only values a T2S or RAG step produced count.
 */
export function findHardCodedLiterals(plan: Plan, execution: PlanExecution, details: ReadonlyMap<number, unknown> = new Map()): HardCodedLiteral[] {
  const found: HardCodedLiteral[] = [];
  const producers = execution.steps.filter((step) => step.tool !== 'LLM' && !step.isError && !isDistribution(step.prompt));
  for (const step of plan.steps) {
    const detail = details.get(step.id);
    const texts: [HardCodedLiteral['where'], string][] = [['prompt', step.prompt], ...(detail === undefined ? [] : [['detail', JSON.stringify(detail)] as [HardCodedLiteral['where'], string]])];
    for (const producer of producers) {
      if (producer.id === step.id) continue;
      for (const value of producedValues(producer.output)) {
        const pattern = new RegExp(`(^|[^A-Za-z0-9_-])${escape(value)}($|[^A-Za-z0-9_-])`, 'i');
        for (const [where, text] of texts) {
          if (pattern.test(text)) found.push({ stepId: step.id, producerId: producer.id, value, where });
        }
      }
    }
  }
  return found;
}
