import type { Plan } from '../schemas/plan.ts';

/** The data tools a question needs: T2S for structured metrics, RAG for what was said on calls. */
export type DataTool = 'T2S' | 'RAG';

/** The data tools a reference plan uses: what a candidate must use too (tool-usage completeness). */
export function requiredToolsOf(reference: Plan): DataTool[] {
  const tools = new Set(reference.steps.map((step) => step.tool));
  return (['T2S', 'RAG'] as const).filter((tool) => tools.has(tool));
}

const STRUCTURED = /\b(how many|count|number of|average|avg|mean|median|rate|percent|percentage|share|total|trend|csat|duration|handle time|hold time|transfers?|escalat\w*|resolution|score|top \d+|highest|lowest|compare|by (?:queue|channel|site|team|agent|month|week|hour))\b/;
const UNSTRUCTURED = /\b(why|reasons?|what do (?:customers|callers|agents) say|complain\w*|themes?|transcripts?|verbatims?|quotes?|phrases?|language|tone|mention\w*|examples?|pain points?|root causes?|objections?)\b/;

/**
 * The data tools a question needs, from its wording, when there is no reference plan: a deterministic keyword
 * reading (numbers and aggregates → T2S; reasons, themes, what was said → RAG). Coarse by design; with a
 * reference plan, {@link requiredToolsOf} is the authority.
 */
export function inferRequiredTools(query: string): DataTool[] {
  const text = query.toLowerCase();
  const tools: DataTool[] = [];
  if (STRUCTURED.test(text)) tools.push('T2S');
  if (UNSTRUCTURED.test(text)) tools.push('RAG');
  return tools;
}
