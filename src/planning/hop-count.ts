import type { Plan } from '../schemas/plan.ts';

/**
 * Hops = the number of steps on the longest dependency chain (docs/architecture.md "Scores"): 1 for a plan of independent
 * steps. Dependencies on unknown steps are ignored and a cycle is cut where it closes, so the count is defined for
 * any plan; the structural validator reports those defects separately.
 */
export function hopCount(plan: Plan): number {
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const depth = new Map<number, number>();
  const visiting = new Set<number>();
  const visit = (id: number): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    let deepest = 0;
    for (const dependency of byId.get(id)?.depends_on ?? []) {
      if (byId.has(dependency)) deepest = Math.max(deepest, visit(dependency));
    }
    visiting.delete(id);
    depth.set(id, deepest + 1);
    return deepest + 1;
  };
  let longest = 0;
  for (const step of plan.steps) longest = Math.max(longest, visit(step.id));
  return longest;
}
