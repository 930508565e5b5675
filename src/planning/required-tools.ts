import type { Plan } from '../schemas/plan.ts';

/** The data tools a question needs: T2S for structured metrics, RAG for what was said on calls. */
export type DataTool = 'T2S' | 'RAG';

/** The data tools a reference plan uses: what a candidate must use too (tool-usage completeness). */
export function requiredToolsOf(reference: Plan): DataTool[] {
  const tools = new Set(reference.steps.map((step) => step.tool));
  return (['T2S', 'RAG'] as const).filter((tool) => tools.has(tool));
}
