import type { Model } from '../models/model.ts';

/** What a judge's calls cost, summed over one grading. */
export interface JudgeUsage {
  inputTokens: number;
  outputTokens: number;
  /** Unknown (null) as soon as one call's price is. */
  costUsd: number | null;
  calls: number;
}

/** Wraps a judge so every call's tokens and cost are summed into `usage` (the cost ledger's judge columns). */
export function metered(judge: Model): { model: Model; usage: JudgeUsage } {
  const usage: JudgeUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0, calls: 0 };
  const model: Model = {
    ...judge,
    spec: judge.spec,
    async respond(request) {
      const response = await judge.respond(request);
      usage.calls += 1;
      usage.inputTokens += response.usage.inputTokens ?? 0;
      usage.outputTokens += response.usage.outputTokens ?? 0;
      usage.costUsd = usage.costUsd === null || response.usage.costUsd === undefined ? null : usage.costUsd + response.usage.costUsd;
      return response;
    },
  };
  return { model, usage };
}

/** The judge metrics of a score: tokens and USD of the judge's calls, null when no judge graded it. */
export function judgeUsageMetrics(usage: JudgeUsage | null): { judge_input_tokens: number | null; judge_output_tokens: number | null; judge_cost_usd: number | null } {
  return {
    judge_input_tokens: usage ? usage.inputTokens : null,
    judge_output_tokens: usage ? usage.outputTokens : null,
    judge_cost_usd: usage ? usage.costUsd : null,
  };
}
