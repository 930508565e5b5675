import { z } from 'zod';
import type { Model } from '../models/model.ts';
import type { Plan } from '../schemas/plan.ts';
import { JUDGED_METRICS } from './plan-metrics.ts';

const JudgeVerdictSchema = z.object({
  tool_prompt_alignment: z.number().min(0).max(100),
  step_executability: z.number().min(0).max(100),
  query_adherence: z.number().min(0).max(100),
});
export type JudgeVerdict = z.infer<typeof JudgeVerdictSchema>;

/** The rubric the judge reads: one paragraph per judged metric, anchored at 0, 50 and 100. */
export const JUDGE_RUBRIC = `You grade a plan that decomposes a contact-center analytics question into steps.
Tools: T2S = text-to-SQL over the call database (calls, agents, customers, qa_evaluations, key_moments); RAG = retrieval over call transcripts; LLM = reasoning/synthesis over earlier outputs. "(k)" in a prompt is the output of step k.
Score each dimension 0-100 against the question and the reference plan:
- tool_prompt_alignment: every prompt asks its tool for what that tool can do (numbers and filters from T2S, what was said from RAG, synthesis from LLM). 100 all aligned; 50 one step misassigned; 0 most misassigned.
- step_executability: every step is specific enough to run as written (concrete metric, population, period; retrieval query with a clear target). 100 all runnable; 50 some vague; 0 none runnable.
- query_adherence: the plan answers exactly the question asked, no more, no less. 100 fully; 50 half the question; 0 off-topic.
Reply with only a JSON object: {"tool_prompt_alignment": n, "step_executability": n, "query_adherence": n}.`;

/** A judge's verdict, or why there is none (its reply did not parse): a missing verdict is never guessed. */
export type JudgeOutcome = { ok: true; verdict: JudgeVerdict } | { ok: false; error: string };

/** Asks the judge model for the judged metrics of one plan. */
export async function judgePlan(judge: Model, query: string, candidate: Plan, reference: Plan): Promise<JudgeOutcome> {
  const response = await judge.respond({
    messages: [
      { role: 'system', content: JUDGE_RUBRIC },
      {
        role: 'user',
        content: `Question: ${query}\n\nReference plan:\n${JSON.stringify(reference)}\n\nPlan to grade:\n${JSON.stringify(candidate)}`,
      },
    ],
    tools: [],
  });
  const text = response.message.content ?? '';
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end < start) return { ok: false, error: `the judge replied without a JSON object: ${text.slice(0, 200)}` };
  try {
    const parsed = JudgeVerdictSchema.safeParse(JSON.parse(text.slice(start, end + 1)));
    if (!parsed.success) {
      return { ok: false, error: `the judge's reply misses ${JUDGED_METRICS.join('/')} in 0..100: ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}` };
    }
    return { ok: true, verdict: parsed.data };
  } catch (error) {
    return { ok: false, error: `the judge's JSON did not parse: ${(error as Error).message}` };
  }
}
