import type { Plan } from '../schemas/plan.ts';
import { DEFAULT_MATCH_THRESHOLD, matchSteps, type StepMatching } from './match-steps.ts';
import { ratingForF1, worseRating, type PlanRating } from './plan-rating.ts';
import { requiredToolsOf } from './required-tools.ts';
import { validatePlanStructure, type StructuralReport } from './validate-plan-structure.ts';
import { semanticIssues, type SemanticIssue } from './semantic-issues.ts';
import type { SqlCatalog } from './sql-catalog.ts';

export interface OneShotOptions {
  threshold?: number;
  filterVocabulary?: readonly string[];
  /** The served database's catalog: lets the semantic checks read values (call drivers, teams…) in the steps' words. */
  catalog?: SqlCatalog;
}

export interface OneShotEvaluation {
  rating: PlanRating;
  /** Why the rating is what it is, in words a reader can check. */
  reasons: string[];
  precision: number;
  recall: number;
  f1: number;
  matching: StepMatching | null;
  structure: StructuralReport;
  /** What the plan means that the reference does not (semantic-issues.ts). */
  semantic: SemanticIssue[];
}

/** The best rating a plan with a semantic issue (a wrong filter, a tool unfit for its step, an LLM step without its inputs) may get. */
export const SEMANTIC_ISSUE_CAP: PlanRating = 'Good';
const EMPTY_CATALOG: SqlCatalog = { tables: new Map() };

/** The best rating a plan that cannot be executed as written (cycle, dangling reference, …) may get. */
export const NOT_EXECUTABLE_CAP: PlanRating = 'Bad';
/** The best rating a plan that leaves out a data tool the question needs (T2S or RAG) may get: half the evidence is missing. */
export const INCOMPLETE_TOOLS_CAP: PlanRating = 'Acceptable';

/**
 * The one-shot evaluator: the candidate plan (raw answer text or a plan) against the reference plan.
 * Format rule: an answer that is not JSON, or is JSON but not a plan, is Extremely Bad. Otherwise the rating is
 * the F1 band of the step matching, capped at Bad when the structural validator finds an error that stops the plan
 * from running as written — a plan whose steps match but whose dependencies cannot be honoured is not "Good" — and
 * at Acceptable when it never uses a data tool (T2S or RAG) the reference uses, and at Good when its steps mean
 * something else than the reference's (semantic-issues.ts): no "Very Good" for a plan with a semantic issue.
 */
export function evaluateOneShot(answer: string | Plan, reference: Plan, options: OneShotOptions = {}): OneShotEvaluation {
  const structure = validatePlanStructure(answer, {
    requiredTools: requiredToolsOf(reference),
    filterVocabulary: options.filterVocabulary ?? [],
  });
  if (!structure.plan) {
    return { rating: 'Extremely Bad', reasons: [structure.issues[0]?.message ?? 'not a plan'], precision: 0, recall: 0, f1: 0, matching: null, structure, semantic: [] };
  }
  const matching = matchSteps(structure.plan, reference, options.threshold ?? DEFAULT_MATCH_THRESHOLD);
  let rating = ratingForF1(matching.f1);
  const reasons = [
    `step F1 ${(matching.f1 * 100).toFixed(1)} % (${matching.matches.length} matched of ${structure.plan.steps.length} planned, ${reference.steps.length} in the reference) → ${rating}`,
  ];
  const errors = structure.issues.filter((issue) => issue.severity === 'error');
  if (errors.length > 0) {
    const capped = worseRating(rating, NOT_EXECUTABLE_CAP);
    if (capped !== rating) reasons.push(`capped at ${NOT_EXECUTABLE_CAP}: ${errors.map((issue) => issue.message).join('; ')}`);
    rating = capped;
  }
  const missing = structure.issues.filter((issue) => issue.code === 'missing-tool');
  if (missing.length > 0) {
    const capped = worseRating(rating, INCOMPLETE_TOOLS_CAP);
    if (capped !== rating) reasons.push(`capped at ${INCOMPLETE_TOOLS_CAP}: ${missing.map((issue) => issue.message).join('; ')}`);
    rating = capped;
  }
  const semantic = semanticIssues(structure.plan, reference, matching, options.catalog ?? EMPTY_CATALOG);
  if (semantic.length > 0) {
    const capped = worseRating(rating, SEMANTIC_ISSUE_CAP);
    if (capped !== rating) reasons.push(`capped at ${SEMANTIC_ISSUE_CAP}: ${semantic.map((issue) => issue.message).join('; ')}`);
    rating = capped;
  }
  return { rating, reasons, precision: matching.precision, recall: matching.recall, f1: matching.f1, matching, structure, semantic };
}
