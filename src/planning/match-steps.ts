import type { Plan } from '../schemas/plan.ts';
import { maximumWeightAssignment } from './hungarian.ts';
import { promptSimilarity } from './prompt-similarity.ts';

/** Prompt similarity at or above which two steps of the same tool match. */
export const DEFAULT_MATCH_THRESHOLD = 0.5;

export interface StepMatch {
  candidateId: number;
  referenceId: number;
  similarity: number;
}

export interface StepMatching {
  matches: StepMatch[];
  unmatchedCandidate: number[];
  unmatchedReference: number[];
  precision: number;
  recall: number;
  f1: number;
}

/**
 * Matches candidate steps to reference steps one-to-one: a pair is admissible when both steps use the same tool
 * and their prompts' similarity reaches the threshold; among admissible pairs the Hungarian algorithm picks the
 * assignment with the most matches, ties broken by the highest total similarity. P = matches / candidate steps,
 * R = matches / reference steps.
 */
export function matchSteps(candidate: Plan, reference: Plan, threshold = DEFAULT_MATCH_THRESHOLD): StepMatching {
  const rows = candidate.steps.length;
  const columns = reference.steps.length;
  // Weight = (matches dominate) bonus + similarity: any assignment with one more match outweighs every tie-break.
  const bonus = Math.max(rows, columns) + 1;
  const similarities = candidate.steps.map((step) =>
    reference.steps.map((other) => (step.tool === other.tool ? promptSimilarity(step.prompt, other.prompt) : 0)),
  );
  const weights = similarities.map((row) => row.map((similarity) => (similarity >= threshold ? bonus + similarity : 0)));
  const assignment = maximumWeightAssignment(weights);
  const matches: StepMatch[] = [];
  assignment.forEach((column, row) => {
    if (column < 0) return;
    matches.push({
      candidateId: candidate.steps[row]!.id,
      referenceId: reference.steps[column]!.id,
      similarity: similarities[row]![column]!,
    });
  });
  const matchedCandidate = new Set(matches.map((match) => match.candidateId));
  const matchedReference = new Set(matches.map((match) => match.referenceId));
  const precision = rows === 0 ? 0 : matches.length / rows;
  const recall = columns === 0 ? 0 : matches.length / columns;
  return {
    matches,
    unmatchedCandidate: candidate.steps.map((step) => step.id).filter((id) => !matchedCandidate.has(id)),
    unmatchedReference: reference.steps.map((step) => step.id).filter((id) => !matchedReference.has(id)),
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
  };
}
