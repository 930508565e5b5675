import type { Model } from '../models/model.ts';
import { PlanSchema, type Plan, type PlanStep } from '../schemas/plan.ts';
import { parsePlan } from './parse-plan.ts';
import { placeholdersOf } from './placeholders.ts';
import type { StepAssessment } from './step-tags.ts';

export interface OptimizeOutcome {
  plan: Plan;
  /** What was changed, one line per edit. */
  edits: string[];
  modelError?: string;
}

/**
 * The plan optimizer: revises a plan according to its step tags. Offline it applies the repairs that follow from the
 * structure alone — MissingDependency: depends_on becomes exactly the earlier steps the prompt refers to (a reference
 * to a missing or later step is removed from the prompt); RepeatedDetail on a duplicated step: the duplicate is
 * removed and its consumers rewired; IncorrectTool with a suggested tool: the tool is switched. With a model, the
 * model rewrites the tagged steps (the prompt-level tags) and its plan replaces the offline one when it parses.
 */
export async function optimizePlan(
  plan: Plan,
  assessments: readonly StepAssessment[],
  options: { query: string; model?: Model },
): Promise<OptimizeOutcome> {
  const edits: string[] = [];
  const tagsOf = new Map(assessments.map((assessment) => [assessment.stepId, assessment]));
  let steps: PlanStep[] = plan.steps.map((step) => ({ ...step, depends_on: [...step.depends_on] }));

  // Duplicated steps (same tool, same prompt): keep the first, point consumers at it.
  const firstOf = new Map<string, number>();
  const replaced = new Map<number, number>();
  for (const step of steps) {
    const key = `${step.tool}\u0000${step.prompt.trim().toLowerCase().replace(/\s+/g, ' ')}`;
    const first = firstOf.get(key);
    if (first !== undefined && tagsOf.get(step.id)?.tags.includes('RepeatedDetail')) replaced.set(step.id, first);
    else if (first === undefined) firstOf.set(key, step.id);
  }
  if (replaced.size > 0) {
    steps = steps.filter((step) => !replaced.has(step.id));
    for (const step of steps) {
      step.prompt = step.prompt.replace(/\((\d+)\)/g, (whole, digits: string) => {
        const target = replaced.get(Number(digits));
        return target === undefined ? whole : `(${target})`;
      });
      step.depends_on = [...new Set(step.depends_on.map((id) => replaced.get(id) ?? id))];
    }
    for (const [removed, kept] of replaced) edits.push(`removed step ${removed}, a repeat of step ${kept}`);
  }

  for (const step of steps) {
    const assessment = tagsOf.get(step.id);
    if (assessment?.tags.includes('IncorrectTool') && assessment.suggestedTool && assessment.suggestedTool !== step.tool) {
      edits.push(`step ${step.id}: tool ${step.tool} → ${assessment.suggestedTool}`);
      step.tool = assessment.suggestedTool;
    }
  }

  // Dependencies follow the placeholders: only earlier, existing steps; a reference to anything else is dropped.
  const seen = new Set<number>();
  for (const step of steps) {
    const referenced = placeholdersOf(step.prompt);
    const invalid = referenced.filter((id) => !seen.has(id));
    if (invalid.length > 0) {
      step.prompt = step.prompt
        .replace(/\((\d+)\)/g, (whole, digits: string) => (invalid.includes(Number(digits)) ? '' : whole))
        .replace(/\s{2,}/g, ' ')
        .trim();
      edits.push(`step ${step.id}: removed the reference to ${invalid.map((id) => `(${id})`).join(', ')} (no such earlier step)`);
    }
    const wanted = referenced.filter((id) => seen.has(id));
    if (wanted.join(',') !== step.depends_on.join(',')) {
      edits.push(`step ${step.id}: depends_on [${step.depends_on.join(', ')}] → [${wanted.join(', ')}]`);
      step.depends_on = wanted;
    }
    seen.add(step.id);
  }

  let revised: Plan = { steps };
  let modelError: string | undefined;
  const promptTagged = assessments.filter((assessment) => assessment.tags.some((value) => value === 'IncorrectPrompt' || value === 'ComplexPrompt' || value === 'RepeatedDetail'));
  if (options.model && promptTagged.length > 0) {
    const response = await options.model.respond({
      messages: [
        {
          role: 'system',
          content:
            'You revise a plan that answers a contact-center analytics question with T2S (SQL over call data), RAG (call transcripts) and LLM (synthesis) steps. ' +
            'Each step is {"id", "tool", "prompt", "depends_on"}; a prompt refers to step k\'s output as "(k)", only for k in its depends_on. ' +
            'Fix the steps the review tags; keep the others as they are. Reply with only the revised plan JSON {"steps": [...]}.',
        },
        {
          role: 'user',
          content: `Question: ${options.query}\n\nPlan:\n${JSON.stringify(revised)}\n\nReview:\n${promptTagged
            .map((assessment) => `step ${assessment.stepId}: ${assessment.tags.join(', ')} — ${assessment.notes.join('; ')}`)
            .join('\n')}`,
        },
      ],
      tools: [],
    });
    const parsed = parsePlan(response.message.content ?? '');
    if (parsed.ok) {
      revised = PlanSchema.parse(parsed.plan);
      edits.push(`model revised step(s) ${promptTagged.map((assessment) => assessment.stepId).join(', ')}`);
    } else {
      modelError = parsed.message;
    }
  }
  return { plan: revised, edits, ...(modelError === undefined ? {} : { modelError }) };
}
