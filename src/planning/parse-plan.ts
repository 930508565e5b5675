import { PlanSchema, type Plan } from '../schemas/plan.ts';

/** Why a text is not a plan: not JSON at all, or JSON that fails the plan schema (zod paths named). */
export type PlanParseResult =
  | { ok: true; plan: Plan; fenced: boolean }
  | { ok: false; kind: 'not-json'; message: string }
  | { ok: false; kind: 'schema'; message: string; issues: Array<{ path: string; message: string }> };

const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/;

/**
 * Parses an agent's final answer as a plan. One Markdown code fence around the JSON is tolerated (and reported
 * as `fenced`) because chat models add it by habit; any other text around the JSON makes it not-JSON, the
 * format rule of docs/architecture.md "Scores" ("non-JSON → Extremely Bad").
 */
export function parsePlan(text: string): PlanParseResult {
  const trimmed = text.trim();
  const fence = FENCE.exec(trimmed);
  const body = fence ? (fence[1] ?? '') : trimmed;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { ok: false, kind: 'not-json', message: `the answer is not JSON: ${(error as Error).message}` };
  }
  const parsed = PlanSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.') || '(root)', message: issue.message }));
    return {
      ok: false,
      kind: 'schema',
      message: `the answer is JSON but not a plan: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
      issues,
    };
  }
  return { ok: true, plan: parsed.data, fenced: fence !== null };
}
