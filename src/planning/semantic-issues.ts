import type { Plan, PlanStep } from '../schemas/plan.ts';
import type { StepMatching } from './match-steps.ts';
import { promptSimilarity } from './prompt-similarity.ts';
import type { SqlCatalog } from './sql-catalog.ts';
import { MEASURES, type Filter, type FrameOutcome, type StepFrame } from './step-frame.ts';
import { frameOfStep } from './translate-step.ts';

/**
 * What a plan means, checked by value without a judge:
 * - `argument-mismatch`: a step matched to a reference step filters, measures, groups, ranks or binds differently
 *   (a wrong call driver, threshold, time window, entity or upstream step), read from both steps' words (step-frame.ts);
 * - `tool-task-fit`: a RAG step asked for a number the warehouse holds, a T2S step asked for what only transcripts hold;
 * - `llm-without-inputs`: an LLM step with no inputs; `llm-inputs-uncovered`: an LLM step whose inputs leave out
 *   data steps its matched reference step reads.
 */
export type SemanticIssueCode = 'argument-mismatch' | 'tool-task-fit' | 'llm-without-inputs' | 'llm-inputs-uncovered';

export interface SemanticIssue {
  stepId: number;
  code: SemanticIssueCode;
  message: string;
}

/** Words asking for what customers and agents said: only transcripts hold it. */
const TRANSCRIPT_ASK = /\b(?:what (?:customers?|callers?|agents?) (?:say|said|tell|told|complain|describe)|in their own words|phrasing|phrased|wording|tone of|quotes?|verbatim|passages? (?:where|in which|showing))\b/i;
/** The offline text-to-SQL's reason for words that name no column, value or measure of the database (step-frame.ts). */
const UNKNOWN_WORDS = /^cannot translate: no column, value or measure of the database means /;
/** Words asking for a number. */
const NUMBER_ASK = /^\s*(?:count|compute|calculate|rank|how many|what (?:is|was) the (?:rate|share|average|mean|number))\b/i;

const describe = (filter: Filter, name: (step: number) => string): string => {
  const value = filter.value === undefined ? '' : filter.value.kind === 'literal' ? ` ${JSON.stringify(filter.value.value)}` : ` ${filter.value.kind === 'step-list' ? 'the calls of ' : ''}${name(filter.value.step)}`;
  return `${filter.column} ${filter.op}${value}${filter.span ? ` +${filter.span} days` : ''}`;
};

/** The differences between two frames, the candidate's step ids mapped to the reference's. */
function differences(candidate: StepFrame, reference: StepFrame, toReference: ReadonlyMap<number, number>): string[] {
  const found: string[] = [];
  const mapped = (step: number) => `step ${toReference.get(step) ?? `?${step}`}`;
  const own = (step: number) => `step ${step}`;
  // The rows a step reads: its filters, and for a comparison the condition of each side (its split).
  const selects = (frame: StepFrame, name: (step: number) => string) => [
    ...frame.filters.map((filter) => describe(filter, name)),
    ...(frame.condition ?? []).map((filter) => `one side ${describe(filter, name)}`),
    ...(frame.otherCondition ?? []).map((filter) => `other side ${describe(filter, name)}`),
  ];
  const theirs = new Set(selects(reference, own));
  const ours = new Set(selects(candidate, mapped));
  const extra = [...ours].filter((entry) => !theirs.has(entry));
  const missing = [...theirs].filter((entry) => !ours.has(entry));
  if (extra.length > 0 || missing.length > 0) {
    found.push(`filters ${extra.length > 0 ? extra.join(', ') : 'nothing more'} where the reference has ${missing.length > 0 ? missing.join(', ') : 'nothing more'}`);
  }
  if (candidate.shape !== reference.shape) found.push(`is a ${candidate.shape} where the reference is a ${reference.shape}`);
  const attributes = (frame: StepFrame) => [...(frame.attributes ?? [])].sort().join(', ');
  if (attributes(candidate) !== attributes(reference)) found.push(`returns ${attributes(candidate) || 'no attributes'} where the reference returns ${attributes(reference) || 'no attributes'}`);
  if ((candidate.measure?.name ?? null) !== (reference.measure?.name ?? null)) found.push(`measures ${candidate.measure?.name ?? 'nothing'} where the reference measures ${reference.measure?.name ?? 'nothing'}`);
  if ((candidate.group ?? null) !== (reference.group ?? null)) found.push(`groups by ${candidate.group ?? 'nothing'} where the reference groups by ${reference.group ?? 'nothing'}`);
  if ((candidate.direction ?? null) !== (reference.direction ?? null)) found.push(`ranks by the ${candidate.direction ?? 'unranked'} where the reference takes the ${reference.direction ?? 'unranked'}`);
  if ((candidate.limit ?? 1) !== (reference.limit ?? 1) || (candidate.minCount ?? 0) !== (reference.minCount ?? 0) || (candidate.factor ?? 0) !== (reference.factor ?? 0) || (candidate.pivot ?? '') !== (reference.pivot ?? '')) {
    found.push('uses another limit, minimum count, factor or pivot date than the reference');
  }
  return found;
}

/**
 * The frames of reference steps, per catalog and step object: a task's reference is compared with every episode's
 * plan and its words never change, so each of its steps is read once. An answer's steps are new objects in every
 * evaluation and are always read.
 */
const referenceFrames = new WeakMap<SqlCatalog, WeakMap<PlanStep, FrameOutcome | undefined>>();

function frameOf(step: PlanStep, catalog: SqlCatalog): FrameOutcome | undefined {
  return step.tool === 'LLM' ? undefined : frameOfStep(step.prompt, catalog, step.tool);
}

function referenceFrameOf(step: PlanStep, catalog: SqlCatalog): FrameOutcome | undefined {
  let frames = referenceFrames.get(catalog);
  if (frames === undefined) referenceFrames.set(catalog, (frames = new WeakMap()));
  if (!frames.has(step)) frames.set(step, frameOf(step, catalog));
  return frames.get(step);
}

/** Least trigram cosine for an unmatched LLM step to stand for a reference LLM step (its words mostly the same). */
const SYNTHESIS_SIMILARITY = 0.6;

/** The reference LLM step left unmatched whose prompt is closest to this LLM step's, if close enough. */
function closestLlmStep(step: PlanStep, reference: Plan, matching: StepMatching): PlanStep | undefined {
  const matched = new Set(matching.matches.map((match) => match.referenceId));
  let best: { step: PlanStep; similarity: number } | undefined;
  for (const candidate of reference.steps) {
    if (candidate.tool !== 'LLM' || matched.has(candidate.id)) continue;
    const similarity = promptSimilarity(step.prompt, candidate.prompt);
    if (similarity >= SYNTHESIS_SIMILARITY && (!best || similarity > best.similarity)) best = { step: candidate, similarity };
  }
  return best?.step;
}

export function semanticIssues(plan: Plan, reference: Plan, matching: StepMatching, catalog: SqlCatalog): SemanticIssue[] {
  const issues: SemanticIssue[] = [];
  const toReference = new Map(matching.matches.map((match) => [match.candidateId, match.referenceId]));
  const referenceById = new Map(reference.steps.map((step) => [step.id, step]));
  for (const step of plan.steps) {
    const matched = toReference.get(step.id);
    const referenceStep = matched === undefined ? undefined : referenceById.get(matched);
    if (step.tool === 'LLM') {
      if (step.depends_on.length === 0) {
        issues.push({ stepId: step.id, code: 'llm-without-inputs', message: `step ${step.id} (LLM) has no inputs: it is asked to reason over data it is never given` });
        continue;
      }
      // An LLM step that leaves out an input loses its match (the dependencies disagree): it is then read against the
      // reference LLM step whose words it shares most, so a synthesis missing what it is asked about is still named.
      const counterpart = referenceStep ?? closestLlmStep(step, reference, matching);
      if (counterpart) {
        const reached = new Set(step.depends_on.map((id) => toReference.get(id)));
        const left = counterpart.depends_on.filter((id) => !reached.has(id));
        const which = referenceStep ? `its matched reference step ${counterpart.id}` : `reference step ${counterpart.id}, the synthesis it stands for,`;
        if (left.length > 0) issues.push({ stepId: step.id, code: 'llm-inputs-uncovered', message: `step ${step.id} (LLM) does not read what reference step${left.length > 1 ? 's' : ''} ${left.join(', ')} found, which ${which} reads` });
      }
      continue;
    }
    const asksNumber = NUMBER_ASK.test(step.prompt) || MEASURES.some((measure) => measure.pattern.test(step.prompt.toLowerCase()));
    if (step.tool === 'RAG' && asksNumber) issues.push({ stepId: step.id, code: 'tool-task-fit', message: `step ${step.id} asks the transcript search for a number the warehouse holds (a T2S step's work)` });
    if (step.tool === 'T2S' && TRANSCRIPT_ASK.test(step.prompt)) issues.push({ stepId: step.id, code: 'tool-task-fit', message: `step ${step.id} asks the warehouse for what only the transcripts hold (a RAG step's work)` });
    if (!referenceStep || referenceStep.tool !== step.tool) continue;
    const ours = frameOf(step, catalog);
    const theirs = referenceFrameOf(referenceStep, catalog);
    // Words that name nothing in the database (no column, value or measure) ask for what it does not hold: the step
    // cannot run as written, whatever words it shares with the reference step (the executor fails it the same way).
    if (ours && !ours.ok && theirs?.ok && UNKNOWN_WORDS.test(ours.reason)) {
      issues.push({ stepId: step.id, code: 'argument-mismatch', message: `step ${step.id} (matched to reference step ${referenceStep.id}) asks for what the database does not hold: ${ours.reason.replace(/^cannot translate: /, '')}` });
      continue;
    }
    if (!ours?.ok || !theirs?.ok) continue;
    const differs = step.tool === 'RAG' ? differences({ ...ours.frame, shape: theirs.frame.shape }, theirs.frame, toReference).slice(0, 1) : differences(ours.frame, theirs.frame, toReference);
    if (differs.length > 0) issues.push({ stepId: step.id, code: 'argument-mismatch', message: `step ${step.id} (matched to reference step ${referenceStep.id}) ${differs.join('; ')}` });
  }
  return issues;
}
