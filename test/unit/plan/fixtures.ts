import type { Plan } from '../../../src/schemas/plan.ts';

/** A compound reference plan: two independent data steps, one synthesis. */
export const REFERENCE: Plan = {
  steps: [
    { id: 1, tool: 'T2S', prompt: 'Compute the escalation rate per queue for calls in March 2026', depends_on: [] },
    { id: 2, tool: 'RAG', prompt: 'Find transcript passages where customers explain why they asked for a supervisor', depends_on: [] },
    { id: 3, tool: 'LLM', prompt: 'Relate the escalation rates in (1) to the reasons customers give in (2)', depends_on: [1, 2] },
  ],
};

export const clone = (plan: Plan): Plan => JSON.parse(JSON.stringify(plan)) as Plan;
