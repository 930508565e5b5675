import type { PlanExecution, StepExecution, StepSource } from '../schemas/plan-execution.ts';
import type { ToolOutcome } from '../mcp/connect-server.ts';
import type { Model } from '../models/model.ts';
import type { Plan, PlanStep } from '../schemas/plan.ts';
import { fillPlaceholders } from './placeholders.ts';
import { queryAll } from './query-all.ts';
import { ragRequest } from './rag-request.ts';
import type { UpstreamResult } from './render-sql.ts';
import { loadSqlCatalog, type SqlCatalog } from './sql-catalog.ts';
import { modelTextToSql } from './model-text-to-sql.ts';
import { translateStep } from './translate-step.ts';
import { validatePlanStructure } from './validate-plan-structure.ts';

/** The MCP tools the executor calls: the SQL server's query tool and the transcripts server's search tool. */
export const SQL_TOOL = 'execute_query';
export const RAG_TOOL = 'search_transcripts';

/** How a step's output was produced — said plainly, so a concatenation is never mistaken for an LLM answer. */
export type { PlanExecution, StepExecution, StepSource } from '../schemas/plan-execution.ts';

export interface RunPlanOptions {
  callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** Writes each T2S step's SQL (`--t2s-model`); without it the offline text-to-SQL translates the step's words. */
  t2sModel?: Model;
  /** Answers LLM steps from their declared inputs. Without it LLM steps concatenate their inputs (labelled so). */
  model?: Model;
  /** `sequential` runs one step at a time in plan order (the benchmark's baseline); default `concurrent`. */
  mode?: 'concurrent' | 'sequential';
  /** Retrieval depth of RAG steps (default 10). */
  k?: number;
  signal?: AbortSignal;
}

/** Longest upstream output spliced into a downstream prompt; a longer one is cut with the cut said in the prompt. */
const MAX_SPLICED_CHARS = 4_000;

type Outcome = Pick<StepExecution, 'source' | 'input' | 'output' | 'isError'> & Partial<Pick<StepExecution, 'rows' | 'totalRows' | 'truncated'>>;

/**
 * Runs a plan on the real servers from the plan alone: every step starts as soon as the steps it depends on have
 * finished (independent steps concurrently). A T2S step's SQL is written from its own words, its bound upstream
 * results and the database's catalog (by `t2sModel`, else the offline text-to-SQL); a RAG step searches with its own
 * words and filters; an LLM step sees only its declared inputs. Each step's full result flows downstream (paged), or
 * the step records `truncated: n of m`. A step whose upstream failed is not run, and says which and why (the upstream step's own reason). A plan that does not
 * pass the structural validator's errors (cycle, dangling reference, …) is refused, not half-run.
 */
export async function runPlan(plan: Plan, options: RunPlanOptions): Promise<PlanExecution> {
  const structure = validatePlanStructure(plan);
  if (!structure.executable) {
    const reasons = structure.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.message);
    return { steps: [], finalOutput: '', wallMs: 0, sequentialMs: 0, criticalPathMs: 0, refused: reasons.join('; ') };
  }
  let catalog: Promise<SqlCatalog> | undefined;
  const catalogOf = () => (catalog ??= loadSqlCatalog(options.callTool).catch(() => ({ tables: new Map() })));
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
    let outcome: Outcome;
    if (failed.length > 0) {
      outcome = { source: 'not-run', input: {}, output: `not run: ${failed.map(whyFailed).join('; ')}`, isError: true };
    } else if (options.signal?.aborted) {
      outcome = { source: 'not-run', input: {}, output: 'not run: the episode was stopped', isError: true };
    } else {
      outcome = withUpstreamCuts(await executeStep(step, prompt, upstream, catalogOf, options), upstream);
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

/** A data step's result as columns and rows: the SQL server's `{columns, rows}`, or a retrieval's hits as call ids. */
export function upstreamResult(output: string): UpstreamResult | undefined {
  let parsed: { columns?: Array<{ name: string }>; rows?: unknown[][]; results?: Array<{ call_id?: unknown }> };
  try {
    parsed = JSON.parse(output) as typeof parsed;
  } catch {
    return undefined;
  }
  if (Array.isArray(parsed.rows)) return { columns: (parsed.columns ?? []).map((column) => column.name), rows: parsed.rows };
  if (Array.isArray(parsed.results)) return { columns: ['call_id'], rows: parsed.results.map((hit) => [hit.call_id]) };
  return undefined;
}

/** The values a step's result hands downstream: a T2S result's first column, a RAG result's call ids, in order. */
export function resultValues(output: string): string[] {
  const result = upstreamResult(output);
  return (result?.rows ?? []).map((row) => row[0]).filter((value) => value !== undefined && value !== null).map(String);
}

async function executeStep(
  step: PlanStep,
  prompt: string,
  upstream: readonly StepExecution[],
  catalogOf: () => Promise<SqlCatalog>,
  options: RunPlanOptions,
): Promise<Outcome> {
  const bound = new Map<number, UpstreamResult>();
  for (const execution of upstream) {
    const result = upstreamResult(execution.output);
    if (result) bound.set(execution.id, result);
  }
  if (step.tool === 'T2S') {
    const catalog = await catalogOf();
    let sql: string;
    let source: StepSource;
    if (options.t2sModel) {
      sql = await modelTextToSql(options.t2sModel, step.prompt, bound, catalog, options.signal);
      source = 'text-to-sql';
    } else {
      const translated = translateStep(step.prompt, catalog, bound);
      if (!translated.ok) return { source: 'offline-text-to-sql', input: {}, output: translated.reason, isError: true };
      sql = translated.sql;
      source = 'offline-text-to-sql';
    }
    const result = await queryAll(options.callTool, SQL_TOOL, sql);
    return { source, input: { sql }, ...result };
  }
  if (step.tool === 'RAG') {
    const request = ragRequest(step.prompt, await catalogOf(), bound, options.k ?? 10);
    if (!request.ok) return { source: 'retrieval', input: {}, output: request.reason, isError: true };
    const result = await options.callTool(RAG_TOOL, request.args);
    const hits = upstreamResult(result.content)?.rows.length;
    return {
      source: 'retrieval',
      input: request.args,
      output: result.content,
      isError: result.isError,
      ...(hits === undefined ? {} : { rows: hits }),
      ...(request.truncated ? { truncated: request.truncated } : {}),
    };
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
  // No model: a deterministic synthesis that concatenates the declared inputs under the request. It is not an
  // LLM answer and is labelled `concatenation` so nobody reads it as one.
  const body = upstream.map((execution) => `(${execution.id}) ${execution.output}`).join('\n');
  return { source: 'concatenation', input: { prompt }, output: `${step.prompt}\n${body}`, isError: false };
}

/**
 * A data step that read a cut upstream result says so beside its own cut: its SQL or search saw only the rows its
 * upstream step handed down ("upstream step 2 truncated: 1000 of 4321 rows"), so nothing is cut without a word.
 */
function withUpstreamCuts(outcome: Outcome, upstream: readonly StepExecution[]): Outcome {
  if (outcome.isError || outcome.source === 'model' || outcome.source === 'concatenation') return outcome;
  const cuts = upstream.filter((execution) => execution.truncated !== undefined).map((execution) => `upstream step ${execution.id} ${execution.truncated}`);
  if (cuts.length === 0) return outcome;
  return { ...outcome, truncated: [outcome.truncated, ...cuts].filter((cut) => cut !== undefined).join('; ') };
}

/** Longest reason of an upstream failure repeated in a skipped step's output. */
const MAX_REASON_CHARS = 300;

/** Why a failed upstream step stops its consumers, its own reason kept: "step 2 failed (cannot translate: …)". */
function whyFailed(execution: StepExecution): string {
  const reason = execution.output.length <= MAX_REASON_CHARS ? execution.output : `${execution.output.slice(0, MAX_REASON_CHARS)} …`;
  return `step ${execution.id} failed (${reason})`;
}

function clip(text: string): string {
  return text.length <= MAX_SPLICED_CHARS ? text : `${text.slice(0, MAX_SPLICED_CHARS)} …[${text.length - MAX_SPLICED_CHARS} more characters]`;
}
