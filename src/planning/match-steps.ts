import type { Plan } from '../schemas/plan.ts';
import { maximumWeightAssignment } from './hungarian.ts';
import { promptSimilarity } from './prompt-similarity.ts';
import { contentOverlap, contentWords } from './step-content.ts';

/** Prompt similarity at or above which two steps of the same tool match. */
export const DEFAULT_MATCH_THRESHOLD = 0.5;
/**
 * A step prompt with fewer content words than this (step-content.ts) never matches a reference step that has at
 * least this many: "Summarise (2)" (0 content words) says nothing a substantive step says. Calibrated on the
 * corrupted-plan tests (test/unit/plan/corrupted-plans.test.ts): every reference step of the committed suite has at
 * least 2 content words ("Count calls with the driver found in (1) per queue": driver, queue), one-line steps
 * ("Summarise (2)", "Count calls in (1)") have 0–1.
 */
export const MIN_CONTENT_WORDS = 2;
/**
 * Least overlap of content words (|A ∩ B| / min(|A|, |B|)) two steps need to ask the same thing: shared template
 * words ("retrieve transcript passages where customers…") are not agreement. Calibrated on the same tests: a
 * paraphrase of a reference step shares ≥ 0.5 of its content words, an unrelated step of the same tool ≤ 0.2.
 */
export const MIN_CONTENT_OVERLAP = 0.34;

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
 * Matches candidate steps to reference steps one-to-one. A pair is admissible when both steps use the same tool,
 * their prompts' trigram similarity reaches the threshold, and they ask the same thing: their content words overlap
 * by MIN_CONTENT_OVERLAP, and a prompt under MIN_CONTENT_WORDS content words does not stand in for a substantive
 * one. Among admissible pairs the Hungarian algorithm picks the assignment with the most matches, ties broken by the
 * highest total similarity. Then a match whose dependencies disagree is dropped: when the reference step depends on
 * a step that is matched, the candidate step must depend (directly or through other steps) on that step's match — a
 * step that hard-codes or ignores what an earlier step finds does not do what the reference step does. Repeated
 * until stable. P = matches / candidate steps, R = matches / reference steps.
 */
export function matchSteps(candidate: Plan, reference: Plan, threshold = DEFAULT_MATCH_THRESHOLD): StepMatching {
  const rows = candidate.steps.length;
  const columns = reference.steps.length;
  // Weight = (matches dominate) bonus + similarity: any assignment with one more match outweighs every tie-break.
  const bonus = Math.max(rows, columns) + 1;
  const candidateWords = candidate.steps.map((step) => contentWords(step.prompt));
  const referenceWords = reference.steps.map((step) => contentWords(step.prompt));
  const asksTheSame = (row: number, column: number): boolean => {
    const [mine, theirs] = [candidateWords[row]!, referenceWords[column]!];
    if (mine.size < MIN_CONTENT_WORDS && theirs.size >= MIN_CONTENT_WORDS) return false;
    return theirs.size < MIN_CONTENT_WORDS || contentOverlap(mine, theirs) >= MIN_CONTENT_OVERLAP;
  };
  const similarities = candidate.steps.map((step, row) =>
    reference.steps.map((other, column) => (step.tool === other.tool && asksTheSame(row, column) ? promptSimilarity(step.prompt, other.prompt) : 0)),
  );
  const weights = similarities.map((row) => row.map((similarity) => (similarity >= threshold ? bonus + similarity : 0)));
  const assignment = maximumWeightAssignment(weights);
  let matches: StepMatch[] = [];
  assignment.forEach((column, row) => {
    if (column < 0) return;
    matches.push({
      candidateId: candidate.steps[row]!.id,
      referenceId: reference.steps[column]!.id,
      similarity: similarities[row]![column]!,
    });
  });
  matches = withAgreeingDependencies(matches, candidate, reference);
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

/** The steps each step depends on, directly or through others (a cycle is followed once round, never forever). */
function ancestorsOf(plan: Plan): Map<number, Set<number>> {
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const found = new Map<number, Set<number>>();
  for (const step of plan.steps) {
    const all = new Set<number>();
    const queue = [...step.depends_on];
    while (queue.length > 0) {
      const id = queue.pop()!;
      if (all.has(id) || !byId.has(id)) continue;
      all.add(id);
      queue.push(...byId.get(id)!.depends_on);
    }
    found.set(step.id, all);
  }
  return found;
}

/** Drops matches whose reference step depends on a matched step the candidate step does not depend on; until stable. */
function withAgreeingDependencies(matches: StepMatch[], candidate: Plan, reference: Plan): StepMatch[] {
  const candidateAncestors = ancestorsOf(candidate);
  const referenceSteps = new Map(reference.steps.map((step) => [step.id, step]));
  let kept = matches;
  for (;;) {
    const candidateFor = new Map(kept.map((match) => [match.referenceId, match.candidateId]));
    const next = kept.filter((match) =>
      (referenceSteps.get(match.referenceId)?.depends_on ?? []).every((dependency) => {
        const counterpart = candidateFor.get(dependency);
        return counterpart === undefined || (candidateAncestors.get(match.candidateId)?.has(counterpart) ?? false);
      }),
    );
    if (next.length === kept.length) return kept;
    kept = next;
  }
}
