import type { Model } from '../models/model.ts';
import type { Plan } from '../schemas/plan.ts';
import { optimizePlan } from './optimize-plan.ts';
import type { StepAssessment } from './step-tags.ts';
import { tagSteps } from './tag-steps.ts';

/** At most this many evaluator → optimizer passes (the lineage paper's budget). */
export const MAX_LINEAGE_PASSES = 4;

export interface LineageEntry {
  /** 0 = the initial plan. */
  revision: number;
  plan: Plan;
  /** The step-wise evaluation of this plan. */
  assessments: StepAssessment[];
  /** The optimizer's edits that produced this plan from the previous one (empty for the initial plan). */
  edits: string[];
}

export interface Lineage {
  /** Every distinct plan in order of revision: the plan lineage. */
  entries: LineageEntry[];
  passes: number;
  stoppedBecause: 'no-change-needed' | 'no-progress' | 'max-passes';
  errors: string[];
}

/**
 * The lineage loop: tag the plan's steps (step-wise evaluator), revise it (optimizer), and repeat on the revision,
 * at most `maxPasses` times; every distinct plan is kept, in order. It stops early when every step is NoChange, or when
 * the optimizer returns a plan already in the lineage (a fixed point or an oscillation).
 */
export async function runLineage(
  initial: Plan,
  options: { query: string; reference?: Plan; model?: Model; filterVocabulary?: readonly string[]; maxPasses?: number },
): Promise<Lineage> {
  const maxPasses = Math.min(options.maxPasses ?? MAX_LINEAGE_PASSES, MAX_LINEAGE_PASSES);
  const errors: string[] = [];
  const tagOptions = {
    query: options.query,
    ...(options.reference ? { reference: options.reference } : {}),
    ...(options.model ? { model: options.model } : {}),
    filterVocabulary: options.filterVocabulary ?? [],
  };
  const first = await tagSteps(initial, tagOptions);
  if (first.modelError) errors.push(first.modelError);
  const entries: LineageEntry[] = [{ revision: 0, plan: initial, assessments: first.assessments, edits: [] }];
  const seen = new Set([JSON.stringify(initial)]);
  let passes = 0;
  while (passes < maxPasses) {
    const current = entries[entries.length - 1]!;
    if (current.assessments.every((assessment) => assessment.tags.length === 1 && assessment.tags[0] === 'NoChange')) {
      return { entries, passes, stoppedBecause: 'no-change-needed', errors };
    }
    passes += 1;
    const revised = await optimizePlan(current.plan, current.assessments, { query: options.query, ...(options.model ? { model: options.model } : {}) });
    if (revised.modelError) errors.push(revised.modelError);
    const key = JSON.stringify(revised.plan);
    if (seen.has(key)) return { entries, passes, stoppedBecause: 'no-progress', errors };
    seen.add(key);
    const tagging = await tagSteps(revised.plan, tagOptions);
    if (tagging.modelError) errors.push(tagging.modelError);
    entries.push({ revision: entries.length, plan: revised.plan, assessments: tagging.assessments, edits: revised.edits });
  }
  const last = entries[entries.length - 1]!;
  const clean = last.assessments.every((assessment) => assessment.tags.length === 1 && assessment.tags[0] === 'NoChange');
  return { entries, passes, stoppedBecause: clean ? 'no-change-needed' : 'max-passes', errors };
}
