import type { FactCheck, PlanExecution, StepExecution } from '../schemas/plan-execution.ts';
import type { Plan } from '../schemas/plan.ts';
import { matchSteps } from './match-steps.ts';
import { upstreamResult } from './run-plan.ts';

/** A retrieval's finding is reached when another retrieval returned at least this share of the same calls (Jaccard). */
export const RETRIEVAL_OVERLAP = 0.5;

const cell = (value: unknown): string => (typeof value === 'number' ? String(Math.round(value * 10_000) / 10_000) : String(value));
/** A row as the multiset of its values (column names and order aside: a plan may name or order columns its own way). */
const rowKey = (row: readonly unknown[]): string => row.map(cell).sort().join('\u0000');
const contains = (outer: readonly unknown[], inner: readonly unknown[]): boolean => {
  const pool = outer.map(cell);
  return inner.every((value) => {
    const at = pool.indexOf(cell(value));
    if (at < 0) return false;
    pool.splice(at, 1);
    return true;
  });
};

function summary(step: StepExecution): string {
  const result = upstreamResult(step.output);
  if (!result) return step.output.slice(0, 200);
  if (step.tool === 'RAG') return `${result.rows.length} passages from ${new Set(result.rows.map((row) => String(row[0]))).size} calls`;
  if (result.rows.length === 1) return result.columns.map((column, index) => `${column} ${cell(result.rows[0]![index])}`).join(', ');
  return `${result.rows.length} rows${step.truncated ? ` (${step.truncated})` : ''}, first ${JSON.stringify(result.rows[0] ?? [])}`;
}

/**
 * Whether a candidate step's result holds a reference step's: a one-row result is held by any row that contains its
 * values (the same entity and measure, extra columns aside); a longer one by a result with as many rows, each
 * reference row among them; a retrieval by one that reached at least RETRIEVAL_OVERLAP of the same calls.
 */
function holds(candidate: StepExecution, reference: StepExecution): boolean {
  if (candidate.isError || candidate.tool !== reference.tool) return false;
  const found = upstreamResult(candidate.output);
  const expected = upstreamResult(reference.output);
  if (!found || !expected) return false;
  if (reference.tool === 'RAG') {
    const left = new Set(found.rows.map((row) => String(row[0])));
    const right = new Set(expected.rows.map((row) => String(row[0])));
    const shared = [...left].filter((id) => right.has(id)).length;
    const union = new Set([...left, ...right]).size;
    return union > 0 && shared / union >= RETRIEVAL_OVERLAP;
  }
  if (expected.rows.length === 1) return found.rows.some((row) => contains(row, expected.rows[0]!));
  if (found.rows.length !== expected.rows.length || candidate.totalRows !== reference.totalRows) return false;
  const keys = new Set(found.rows.map(rowKey));
  return expected.rows.every((row) => keys.has(rowKey(row)));
}

export interface ExecutionComparison {
  facts: FactCheck[];
  /** Share of the reference's findings reached, 0..1; null when the reference established none. */
  reached: number | null;
  divergedAt: PlanExecution['divergedAt'];
}

/**
 * "Facts reached": each finding of the reference executed the same way (a T2S or RAG step that returned rows) is
 * looked for in the executed plan's data steps, and each synthesis among the plan's LLM steps (see below). The first one missed, in the reference's order, is where the plan
 * diverged, named with the candidate step matched to that reference step and what each found.
 */
export function compareExecutions(plan: Plan, execution: PlanExecution, reference: Plan, referenceExecution: Omit<PlanExecution, 'reference' | 'facts' | 'divergedAt'>): ExecutionComparison {
  const findings = referenceExecution.steps.filter((step) => step.tool !== 'LLM' && !step.isError && (upstreamResult(step.output)?.rows.length ?? 0) > 0);
  const candidates = execution.steps.filter((step) => step.tool !== 'LLM');
  const facts: FactCheck[] = findings.map((finding) => {
    const by = candidates.find((step) => holds(step, finding));
    return { referenceStep: finding.id, tool: finding.tool, expected: summary(finding), reached: by !== undefined, by: by?.id ?? null };
  });
  // A synthesis is a finding too: the reference's LLM step reads certain findings; the plan reaches it when one of its
  // LLM steps reads (as direct inputs) the steps that reached every one of them.
  const reachedBy = new Map(facts.map((fact) => [fact.referenceStep, fact.by]));
  for (const step of reference.steps.filter((entry) => entry.tool === 'LLM')) {
    const inputs = step.depends_on.filter((id) => reachedBy.has(id));
    if (inputs.length === 0) continue;
    const needed = inputs.map((id) => reachedBy.get(id) ?? null);
    const by = needed.includes(null) ? undefined : plan.steps.find((candidate) => candidate.tool === 'LLM' && needed.every((id) => candidate.depends_on.includes(id!)));
    facts.push({ referenceStep: step.id, tool: 'LLM', expected: `a synthesis reading the findings of steps ${inputs.join(', ')}`, reached: by !== undefined, by: by?.id ?? null });
  }
  facts.sort((left, right) => left.referenceStep - right.referenceStep);
  const missed = facts.find((fact) => !fact.reached);
  let divergedAt: PlanExecution['divergedAt'] = null;
  if (missed) {
    const matched = matchSteps(plan, reference).matches.find((match) => match.referenceId === missed.referenceStep)?.candidateId ?? null;
    const step = matched === null ? undefined : execution.steps.find((entry) => entry.id === matched);
    divergedAt = { referenceStep: missed.referenceStep, candidateStep: matched, expected: missed.expected, found: step ? (step.isError ? step.output.slice(0, 300) : summary(step)) : 'no step of the plan matches it' };
  }
  return { facts, reached: facts.length > 0 ? facts.filter((fact) => fact.reached).length / facts.length : null, divergedAt };
}
