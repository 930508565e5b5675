import { z } from 'zod';
import type { Model } from '../models/model.ts';
import type { Plan } from '../schemas/plan.ts';
import { DEFAULT_MATCH_THRESHOLD, matchSteps } from './match-steps.ts';
import { promptSimilarity } from './prompt-similarity.ts';
import { MODEL_TAGS, STEP_TAGS, type StepAssessment, type StepTag } from './step-tags.ts';
import { validatePlanStructure } from './validate-plan-structure.ts';

export interface TagStepsOptions {
  query: string;
  /** With a reference plan, a step that matches a reference step only under another tool is IncorrectTool. */
  reference?: Plan;
  /** With a model, IncorrectPrompt and ComplexPrompt are judged too; without one they are never assigned. */
  model?: Model;
  filterVocabulary?: readonly string[];
  threshold?: number;
}

export interface StepTagging {
  assessments: StepAssessment[];
  /** Whether the model-judged tags were assessed (a model was given and its reply parsed). */
  modelJudged: boolean;
  modelError?: string;
}

/**
 * The step-wise evaluator: tags every step of a plan. Offline, from structure: MissingDependency (a placeholder not in
 * depends_on, a dependency that does not exist or comes later, a cycle), RepeatedDetail (a filter re-applied
 * downstream, a duplicated step), IncorrectTool (against the reference: an unmatched step whose prompt matches a
 * reference step of another tool). With a model: IncorrectPrompt and ComplexPrompt as well. NoChange = no other tag.
 */
export async function tagSteps(plan: Plan, options: TagStepsOptions): Promise<StepTagging> {
  const byStep = new Map<number, StepAssessment>(plan.steps.map((step) => [step.id, { stepId: step.id, tags: [], notes: [] }]));
  const tag = (stepId: number | undefined, value: StepTag, note: string): void => {
    const assessment = stepId === undefined ? undefined : byStep.get(stepId);
    if (!assessment) return;
    if (!assessment.tags.includes(value)) assessment.tags.push(value);
    assessment.notes.push(note);
  };

  const structure = validatePlanStructure(plan, { filterVocabulary: options.filterVocabulary ?? [] });
  for (const issue of structure.issues) {
    if (['dangling-placeholder', 'unknown-dependency', 'forward-dependency', 'cycle'].includes(issue.code)) tag(issue.stepId, 'MissingDependency', issue.message);
    if (issue.code === 'redundant-filter' || issue.code === 'duplicate-step') tag(issue.stepId, 'RepeatedDetail', issue.message);
  }

  if (options.reference) {
    const threshold = options.threshold ?? DEFAULT_MATCH_THRESHOLD;
    const matching = matchSteps(plan, options.reference, threshold);
    const unmatchedReference = options.reference.steps.filter((step) => matching.unmatchedReference.includes(step.id));
    for (const id of matching.unmatchedCandidate) {
      const step = plan.steps.find((candidate) => candidate.id === id)!;
      let best: { tool: StepAssessment['suggestedTool']; similarity: number; id: number } | undefined;
      for (const other of unmatchedReference) {
        if (other.tool === step.tool) continue;
        const similarity = promptSimilarity(step.prompt, other.prompt);
        if (similarity >= threshold && (!best || similarity > best.similarity)) best = { tool: other.tool, similarity, id: other.id };
      }
      if (best) {
        tag(id, 'IncorrectTool', `step ${id} asks what reference step ${best.id} asks, but with ${step.tool} instead of ${best.tool}`);
        byStep.get(id)!.suggestedTool = best.tool;
      }
    }
  }

  let modelJudged = false;
  let modelError: string | undefined;
  if (options.model) {
    const outcome = await modelTags(options.model, plan, options.query);
    if (outcome.ok) {
      modelJudged = true;
      for (const entry of outcome.steps) for (const value of entry.tags) tag(entry.id, value, entry.note ?? `${value} (model)`);
    } else {
      modelError = outcome.error;
    }
  }

  for (const assessment of byStep.values()) if (assessment.tags.length === 0) assessment.tags.push('NoChange');
  return { assessments: [...byStep.values()], modelJudged, ...(modelError === undefined ? {} : { modelError }) };
}

const ModelTagsSchema = z.object({
  steps: z.array(z.object({ id: z.number().int(), tags: z.array(z.enum(STEP_TAGS)), note: z.string().optional() })),
});

async function modelTags(
  model: Model,
  plan: Plan,
  query: string,
): Promise<{ ok: true; steps: z.infer<typeof ModelTagsSchema>['steps'] } | { ok: false; error: string }> {
  const response = await model.respond({
    messages: [
      {
        role: 'system',
        content:
          'You review a plan that answers a contact-center analytics question with T2S (SQL over call data), RAG (call transcripts) and LLM (synthesis) steps; "(k)" is the output of step k. ' +
          `For every step give the tags that apply among ${MODEL_TAGS.join(', ')} (IncorrectPrompt: the prompt asks for the wrong thing or misses what the question needs; ` +
          'ComplexPrompt: the prompt crams several requests that should be separate steps). Reply with only JSON: {"steps": [{"id": n, "tags": [...], "note": "why"}]}.',
      },
      { role: 'user', content: `Question: ${query}\n\nPlan:\n${JSON.stringify(plan)}` },
    ],
    tools: [],
  });
  const text = response.message.content ?? '';
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  try {
    const parsed = ModelTagsSchema.safeParse(JSON.parse(text.slice(start, end + 1)));
    if (!parsed.success) return { ok: false, error: `the model's tags do not fit the schema: ${parsed.error.issues[0]?.message ?? ''}` };
    // Only the tags a model is asked for: structural tags come from the structure, not from the model's opinion.
    return { ok: true, steps: parsed.data.steps.map((step) => ({ ...step, tags: step.tags.filter((value) => MODEL_TAGS.includes(value)) })) };
  } catch (error) {
    return { ok: false, error: `the model's reply is not JSON: ${(error as Error).message}` };
  }
}
