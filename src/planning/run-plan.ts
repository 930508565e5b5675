import type { PlanExecution, StepExecution, StepSource } from '../schemas/plan-execution.ts';
import type { ToolOutcome } from '../mcp/connect-server.ts';
import type { Model } from '../models/model.ts';
import type { Plan, PlanStep } from '../schemas/plan.ts';
import type { ReferenceStepDetailSchema } from '../schemas/plan-task.ts';
import type { z } from 'zod';
import { matchSteps } from './match-steps.ts';
import { fillPlaceholders } from './placeholders.ts';
import { validatePlanStructure } from './validate-plan-structure.ts';

export type ReferenceStepDetail = z.infer<typeof ReferenceStepDetailSchema>;

/** The MCP tools the executor calls: the SQL server's query tool and the transcripts server's search tool. */
export const SQL_TOOL = 'execute_query';
export const RAG_TOOL = 'search_transcripts';

/** How a step's output was produced — said plainly, so a concatenation is never mistaken for an LLM answer. */
export type { PlanExecution, StepExecution, StepSource } from '../schemas/plan-execution.ts';

export interface RunPlanOptions {
  callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** The reference plan and its step details: a candidate step matched to a reference step runs its SQL / retrieval. */
  reference?: { plan: Plan; details: readonly ReferenceStepDetail[] };
  /** Text-to-SQL for unmatched T2S steps, and the synthesis of LLM steps. Without it LLM steps concatenate. */
  model?: Model;
  /** `sequential` runs one step at a time in plan order (the benchmark's baseline); default `concurrent`. */
  mode?: 'concurrent' | 'sequential';
  /** Retrieval depth of RAG steps without a reference detail. */
  k?: number;
  signal?: AbortSignal;
}

/** Longest upstream output spliced into a downstream prompt (a model's context, and the record, stay bounded). */
const MAX_SPLICED_CHARS = 4_000;

/**
 * Runs a plan on the real servers through the given tool caller: every step starts as soon as the steps it depends
 * on have finished (independent steps concurrently), "(k)" placeholders are filled with upstream outputs, each step's
 * output and timing are recorded. A step whose upstream failed is not run. A plan that does not pass the structural
 * validator's errors (cycle, dangling reference, …) is refused, not half-run.
 */
export async function runPlan(plan: Plan, options: RunPlanOptions): Promise<PlanExecution> {
  const structure = validatePlanStructure(plan);
  if (!structure.executable) {
    const reasons = structure.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.message);
    return { steps: [], finalOutput: '', wallMs: 0, sequentialMs: 0, criticalPathMs: 0, refused: reasons.join('; ') };
  }
  const detailFor = referenceDetails(plan, options.reference);
  const started = performance.now();
  const results = new Map<number, Promise<StepExecution>>();

  const runStep = async (step: PlanStep): Promise<StepExecution> => {
    const upstream = await Promise.all(step.depends_on.map((id) => results.get(id)!));
    const outputs = new Map(upstream.map((execution) => [execution.id, execution]));
    const prompt = fillPlaceholders(step.prompt, (id) => {
      const output = outputs.get(id)?.output;
      return output === undefined ? undefined : `[output of step ${id}: ${clip(output)}]`;
    });
    const startMs = performance.now() - started;
    const failed = upstream.filter((execution) => execution.isError);
    let outcome: { source: StepSource; input: Record<string, unknown>; output: string; isError: boolean };
    if (failed.length > 0) {
      outcome = { source: 'not-run', input: {}, output: `not run: step ${failed.map((execution) => execution.id).join(', ')} failed`, isError: true };
    } else if (options.signal?.aborted) {
      outcome = { source: 'not-run', input: {}, output: 'not run: the episode was stopped', isError: true };
    } else {
      outcome = await executeStep(step, prompt, upstream, detailFor.get(step.id), options);
    }
    const endMs = performance.now() - started;
    return { id: step.id, tool: step.tool, prompt, ...outcome, startMs, endMs, durationMs: endMs - startMs };
  };

  if (options.mode === 'sequential') {
    for (const step of plan.steps) {
      const execution = runStep(step);
      results.set(step.id, execution);
      await execution;
    }
  } else {
    // Dependencies always come earlier (the validator checked), so creating the promises in plan order is enough.
    for (const step of plan.steps) results.set(step.id, runStep(step));
  }
  const steps = await Promise.all(plan.steps.map((step) => results.get(step.id)!));
  const wallMs = performance.now() - started;

  const finish = new Map<number, number>();
  for (const step of plan.steps) {
    const own = steps.find((execution) => execution.id === step.id)!.durationMs;
    finish.set(step.id, own + Math.max(0, ...step.depends_on.map((id) => finish.get(id) ?? 0)));
  }
  const consumed = new Set(plan.steps.flatMap((step) => step.depends_on));
  const sinks = steps.filter((execution) => !consumed.has(execution.id));
  return {
    steps,
    finalOutput: sinks.map((execution) => (sinks.length > 1 ? `(${execution.id}) ${execution.output}` : execution.output)).join('\n\n'),
    wallMs,
    sequentialMs: steps.reduce((sum, execution) => sum + execution.durationMs, 0),
    criticalPathMs: Math.max(0, ...finish.values()),
  };
}

/** Candidate step id → the detail of the reference step it matches (a reference plan matches itself). */
function referenceDetails(plan: Plan, reference: RunPlanOptions['reference']): Map<number, ReferenceStepDetail> {
  const found = new Map<number, ReferenceStepDetail>();
  if (!reference) return found;
  const details = new Map(reference.details.map((detail) => [detail.stepId, detail]));
  for (const match of matchSteps(plan, reference.plan).matches) {
    const detail = details.get(match.referenceId);
    if (detail) found.set(match.candidateId, detail);
  }
  return found;
}

async function executeStep(
  step: PlanStep,
  prompt: string,
  upstream: readonly StepExecution[],
  detail: ReferenceStepDetail | undefined,
  options: RunPlanOptions,
): Promise<{ source: StepSource; input: Record<string, unknown>; output: string; isError: boolean }> {
  if (step.tool === 'T2S') {
    let sql = detail?.sql;
    let source: StepSource = 'reference-sql';
    if (sql !== undefined) {
      const bound = bindSql(sql, step, upstream);
      if (!bound.ok) return { source: 'not-run', input: {}, output: `not run: ${bound.error}`, isError: true };
      sql = bound.sql;
    }
    if (sql === undefined) {
      if (!options.model) {
        return { source: 'not-run', input: {}, output: 'not run: no reference SQL for this step and no model for text-to-SQL', isError: true };
      }
      sql = await textToSql(options.model, prompt, options.signal);
      source = 'text-to-sql';
    }
    const result = await options.callTool(SQL_TOOL, { sql });
    return { source, input: { sql }, output: result.content, isError: result.isError };
  }
  if (step.tool === 'RAG') {
    const query = detail?.retrieval?.query ?? prompt;
    const bound = bindFilters(detail?.retrieval?.filters ?? {}, step, upstream);
    if (!bound.ok) return { source: 'not-run', input: {}, output: `not run: ${bound.error}`, isError: true };
    const filters = bound.filters;
    const args = { query, k: options.k ?? 5, filters };
    const result = await options.callTool(RAG_TOOL, args);
    return { source: 'retrieval', input: args, output: result.content, isError: result.isError };
  }
  if (options.model) {
    const response = await options.model.respond({
      messages: [
        { role: 'system', content: 'You are a contact-center analyst. Answer the request using only the data given in it. Be concise.' },
        { role: 'user', content: prompt },
      ],
      tools: [],
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return { source: 'model', input: { prompt }, output: response.message.content ?? '', isError: false };
  }
  // No model: a deterministic synthesis that concatenates the upstream outputs under the request. It is not an
  // LLM answer and is labelled `concatenation` so nobody reads it as one; it keeps every upstream fact reachable.
  const body = upstream.map((execution) => `(${execution.id}) ${execution.output}`).join('\n');
  return { source: 'concatenation', input: { prompt }, output: `${step.prompt}\n${body}`, isError: false };
}

/**
 * The values a step's result hands downstream: a T2S result's first column (the SQL server's JSON `{columns, rows}`),
 * a RAG result's call ids (`{results: [{call_id}]}`), in order. Empty when the output is neither.
 */
export function resultValues(output: string): string[] {
  let parsed: { rows?: unknown[][]; results?: { call_id?: unknown }[] };
  try {
    parsed = JSON.parse(output) as typeof parsed;
  } catch {
    return [];
  }
  const raw = parsed.rows ? parsed.rows.map((row) => row[0]) : (parsed.results ?? []).map((hit) => hit.call_id);
  return raw.filter((value) => value !== undefined && value !== null).map(String);
}

/** Step k's values when k is one of the step's dependencies and has any; else the reason it cannot be bound. */
function upstreamValues(id: number, what: string, step: PlanStep, upstream: readonly StepExecution[]): { ok: true; values: string[] } | { ok: false; error: string } {
  const source = upstream.find((execution) => execution.id === id);
  if (!source || !step.depends_on.includes(id)) return { ok: false, error: `${what} refers to step ${id}, which this step does not depend on` };
  const values = resultValues(source.output);
  if (values.length === 0) return { ok: false, error: `${what}: step ${id}'s result has no value to narrow to` };
  return { ok: true, values };
}

/**
 * A reference retrieval narrows to what an upstream step found: a filter value "(k)", k in depends_on, is bound to
 * step k's first value — or, for `call_ids`, to all its values (at most MAX_BOUND_IDS) — see `resultValues`.
 */
function bindFilters(
  filters: Record<string, unknown>,
  step: PlanStep,
  upstream: readonly StepExecution[],
): { ok: true; filters: Record<string, unknown> } | { ok: false; error: string } {
  const bound: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    const reference = typeof value === 'string' ? /^\((\d+)\)$/.exec(value) : null;
    if (!reference) {
      bound[key] = value;
      continue;
    }
    const found = upstreamValues(Number(reference[1]), `filter ${key}`, step, upstream);
    if (!found.ok) return found;
    bound[key] = key === 'call_ids' ? found.values.slice(0, MAX_BOUND_IDS) : found.values[0];
  }
  return { ok: true, filters: bound };
}

/** Most values a list placeholder binds to (the transcripts server's call_ids filter takes up to 1,000). */
const MAX_BOUND_IDS = 1000;
/** In reference SQL, `'(k)'` is step k's first value as an SQL string; `'(k)[]'` the list of all its values, `('a', 'b')`. */
const SQL_PLACEHOLDER = /'\((\d+)\)(\[\])?'/g;

/** Binds the SQL placeholders of a reference step to its upstream steps' actual outputs (see SQL_PLACEHOLDER). */
function bindSql(sql: string, step: PlanStep, upstream: readonly StepExecution[]): { ok: true; sql: string } | { ok: false; error: string } {
  let error: string | undefined;
  const bound = sql.replace(SQL_PLACEHOLDER, (whole, digits: string, list: string | undefined) => {
    const found = upstreamValues(Number(digits), `SQL placeholder ${whole}`, step, upstream);
    if (!found.ok) {
      error ??= found.error;
      return whole;
    }
    const quote = (value: string): string => `'${value.replaceAll("'", "''")}'`;
    return list ? `(${found.values.slice(0, MAX_BOUND_IDS).map(quote).join(', ')})` : quote(found.values[0]!);
  });
  return error === undefined ? { ok: true, sql: bound } : { ok: false, error };
}

const SQL_FENCE = /```(?:sql)?\s*\n([\s\S]*?)```/i;

/** Asks the model for one DuckDB query answering the step; the reply's first SQL code block (or the whole reply). */
async function textToSql(model: Model, prompt: string, signal: AbortSignal | undefined): Promise<string> {
  const response = await model.respond({
    messages: [
      {
        role: 'system',
        content:
          'Write one read-only DuckDB SQL query. Tables: calls(call_id, started_at, time_zone, queue, channel, call_driver, agent_id, ' +
          'customer_id, duration_s, hold_s, transfers, resolved, escalated, sentiment_start, sentiment_end, csat), agents(agent_id, name, ' +
          'team, site, tenure_months, shift), customers, qa_evaluations(evaluation_id, call_id, agent_id, evaluated_at, rubric_item, score), ' +
          'key_moments(call_id, turn_index, moment), transcript_turns. Reply with the SQL in a ```sql block.',
      },
      { role: 'user', content: prompt },
    ],
    tools: [],
    ...(signal ? { signal } : {}),
  });
  const text = response.message.content ?? '';
  return (SQL_FENCE.exec(text)?.[1] ?? text).trim();
}

function clip(text: string): string {
  return text.length <= MAX_SPLICED_CHARS ? text : `${text.slice(0, MAX_SPLICED_CHARS)} …[${text.length - MAX_SPLICED_CHARS} more characters]`;
}
