import type { SeededRandom } from '../../databases/seeded-random.ts';
import type { CctuStructure } from '../../src/schemas/cctu-task.ts';
import type { Constraint } from '../../src/schemas/constraint.ts';

type Params<C extends Constraint['category']> = Extract<Constraint, { category: C }>['params'];

/** What the reference does, which bounds every sampled value (so the task stays solvable). */
export interface ReferenceShape {
  structure: CctuStructure;
  /** Tool names of each tool-call step, in order. */
  steps: string[][];
  /** All tools the task declares. */
  tools: string[];
  /** The tools of each question chain, hop by hop. */
  chains: string[][];
  /** Prefer parallel groups of these shapes when the reference allows them. */
  groupShape?: 'self' | 'overlap';
}

/** Constraints except the response ones, which depend on the answer; plus which response kinds to add. */
export interface SampledConstraints {
  constraints: Constraint[];
  format?: Params<'response.format'>;
  content?: Params<'response.content'>;
  /** Whether to add response.length once the answer is written. */
  length?: { unit: 'chars' | 'words'; chooseFrom: { max: Array<number | undefined>; min: number[] } };
}

// CCTU's mix (docs/cctu-reference.md): each optional kind with about 50 % probability.
const OPTIONAL_PROBABILITY = 0.5;

function firstStep(steps: string[][], tool: string): number {
  return steps.findIndex((step) => step.includes(tool));
}

/** A bound at least `needed`, from CCTU's common values when one fits, else `needed` plus a little slack. */
function upperBound(random: SeededRandom, common: readonly number[], needed: number): number {
  const fits = common.filter((value) => value >= needed);
  return fits.length > 0 ? random.pick(fits) : needed + random.int(0, 2);
}

function lowerBound(random: SeededRandom, needed: number, probabilityZero: number): number {
  return needed === 0 || random.chance(probabilityZero) ? 0 : random.int(1, needed);
}

/** A category's sampler: its params drawn from the reference, or undefined when the task gets none of it. */
type Sampler<C extends Constraint['category']> = { category: C; sample: (shape: ReferenceShape, random: SeededRandom) => Params<C> | undefined };
const sampler = <C extends Constraint['category']>(category: C, sample: Sampler<C>['sample']): Sampler<C> => ({ category, sample });
const isParallel = (shape: ReferenceShape) => shape.structure.startsWith('parallel');

/**
 * The categories the generator samples before the answer is written, in draw order (the order is part of the seeded
 * suite: a new row goes last): resource (rounds) and toolset always; every other kind with about 50 % — sequential
 * dependencies only in multi-hop structures, parallel dependencies and parallel-call counts only in parallel ones —
 * with values the reference satisfies. The response kinds, which depend on the answer, follow in sampleConstraints.
 */
const SAMPLERS: ReadonlyArray<Sampler<Constraint['category']>> = [
  // Rounds: max 20 in about half the cases, otherwise CCTU's common small values that still fit.
  sampler('resource.interaction_rounds', ({ steps }, random) => ({
    min: lowerBound(random, steps.length + 1, 0.75),
    max: random.chance(0.5) ? 20 : upperBound(random, [3, 8, 10, 5, 2, 3, 5], steps.length + 1),
  })),
  sampler('resource.tool_call_count', ({ steps }, random) => {
    if (!random.chance(OPTIONAL_PROBABILITY)) return undefined;
    const calls = steps.flat().length;
    return { min: lowerBound(random, calls, 0.75), max: upperBound(random, [10, 3, 2, 5, 4, 8], calls) };
  }),
  sampler('resource.specific_tool_call_count', (shape, random) => {
    if (!random.chance(OPTIONAL_PROBABILITY)) return undefined;
    // Usually one tool limited (62 of 106 in CCTU); sometimes 2–8. Tools the reference uses first, to 1–2 calls.
    const calls = shape.steps.flat();
    const used = [...new Set(calls)];
    const count = random.chance(0.6) ? 1 : Math.min(shape.tools.length, random.weighted([[2, 0.4], [3, 0.25], [4, 0.15], [5, 0.1], [6, 0.05], [8, 0.05]] as const));
    const pool = random.chance(0.7) ? [...random.shuffle(used), ...random.shuffle(shape.tools.filter((tool) => !used.includes(tool)))] : random.shuffle(shape.tools);
    const limits: Record<string, number> = {};
    for (const tool of pool.slice(0, count)) {
      const needed = calls.filter((name) => name === tool).length;
      limits[tool] = Math.max(needed, random.weighted([[1, 0.6], [2, 0.4]] as const));
    }
    return { limits };
  }),
  sampler('behavior.sequential_dependencies', (shape, random) => {
    if (!shape.structure.endsWith('multi-hop') || !random.chance(OPTIONAL_PROBABILITY)) return undefined;
    const chains = orderingChains(shape, random);
    return chains.length > 0 ? { chains } : undefined;
  }),
  sampler('behavior.parallel_dependencies', (shape, random) => {
    if (!isParallel(shape) || !(shape.groupShape !== undefined || random.chance(OPTIONAL_PROBABILITY))) return undefined;
    const groups = parallelGroups(shape.steps, random, shape.groupShape);
    return groups ? { groups } : undefined;
  }),
  sampler('behavior.parallel_calls_count', ({ steps, structure }, random) => {
    if (!structure.startsWith('parallel') || !random.chance(OPTIONAL_PROBABILITY)) return undefined;
    const unit = random.chance(0.85) ? 'type' : 'times';
    const perStep = steps.map((step) => (unit === 'type' ? new Set(step).size : step.length));
    const most = Math.max(...perStep);
    const min = most >= 2 && random.chance(0.85) ? 2 : random.int(0, Math.min(1, most));
    const max = random.chance(0.7) ? undefined : upperBound(random, [2, 3, 4], most);
    return { min, max, unit };
  }),
  sampler('toolset.available_tools', () => ({})),
  sampler('toolset.required_parameters', () => ({})),
  sampler('toolset.parameter_types', () => ({})),
] as ReadonlyArray<Sampler<Constraint['category']>>;

/** Samples a task's constraints the CCTU way, from its reference: every row of SAMPLERS in order, then the response kinds. */
export function sampleConstraints(shape: ReferenceShape, random: SeededRandom): SampledConstraints {
  const constraints: Constraint[] = [];
  for (const { category, sample } of SAMPLERS) {
    const params = sample(shape, random);
    if (params !== undefined) constraints.push({ id: category.split('.')[1] as string, category, params } as Constraint);
  }

  const result: SampledConstraints = { constraints };
  if (random.chance(OPTIONAL_PROBABILITY)) {
    const format = random.weighted([['json', 0.4], ['markdown', 0.3], ['plain', 0.15], ['table', 0.15]] as const);
    result.format =
      format === 'json'
        ? { format, strictness: 'strict' as const, requiredKeys: ['answer'], ...(random.chance(0.5) ? { keyTypes: { answer: 'string' as const } } : {}) }
        : format === 'table'
          ? { format, minColumns: 2 }
          : { format };
  }
  if (random.chance(OPTIONAL_PROBABILITY)) result.content = sampleContent(random, result.format?.format);
  if (random.chance(OPTIONAL_PROBABILITY)) {
    result.length = {
      unit: random.chance(0.5) ? 'chars' : 'words',
      chooseFrom: { max: [150, 100, 200, 50, 500, undefined], min: [0, 0, 0, 50, 10, 150, 100] },
    };
  }
  return result;
}

/**
 * Content requirements that cannot contradict the format: a JSON or table answer gets no literal start,
 * end or ending punctuation (CCTU's manual review found JSON-only vs final-period conflicts); plain text
 * gets no bold marker; keyword lists are filled with the asked-about entities by the caller.
 */
function sampleContent(random: SeededRandom, format: string | undefined): Params<'response.content'> {
  const structured = format === 'json' || format === 'table';
  const content: Params<'response.content'> = {};
  // Keywords are the entities asked about: a JSON answer holds only the values, so it gets no keywords.
  // A sample drawn as a shuffled prefix, its size drawn first (the committed suite was generated so).
  const size = random.int(1, 2);
  const kinds = random
    .shuffle(format === 'json' ? ['identifiers'] : structured ? ['identifiers', 'identifiers', 'keywords'] : ['identifiers', 'punctuation', 'start', 'end', 'keywords'])
    .slice(0, size);
  for (const kind of new Set(kinds)) {
    if (kind === 'identifiers') {
      const choices = format === 'plain' ? ['double-brackets', 'boxed', 'quotes'] : ['double-brackets', 'boxed', 'bold', 'quotes'];
      content.identifiers = [random.pick(choices) as 'double-brackets'];
    } else if (kind === 'punctuation') content.endingPunctuation = '.';
    else if (kind === 'start') content.startsWith = random.pick(['ANSWER:', 'Answer:', 'Result:']);
    else if (kind === 'end') content.endsWith = random.pick(['This concludes the answer.', 'I hope this helps.', 'End of report.']);
    else if (kind === 'keywords') content.keywords = [];
  }
  return content;
}

/** Whether every step calling a tool of `groups` holds, as a multiset, all tools of one of that tool's groups. */
export function groupsHold(steps: string[][], groups: string[][]): boolean {
  const count = (step: string[], tool: string): number => step.filter((name) => name === tool).length;
  const holds = (step: string[], group: string[]): boolean => group.every((tool) => count(step, tool) >= count(group, tool));
  const tools = new Set(groups.flat());
  return steps.every((step) => [...tools].every((tool) => !step.includes(tool) || groups.some((group) => group.includes(tool) && holds(step, group))));
}

/**
 * Parallel groups the reference satisfies: a pair of distinct tools called together (CCTU's usual case), a
 * self-group [t, t] (t called twice in every message that calls it) or two overlapping groups [a, b], [a, c]
 * (alternatives for a: CCTU's tasks 180 and 198).
 */
function parallelGroups(steps: string[][], random: SeededRandom, prefer: ReferenceShape['groupShape']): string[][] | undefined {
  const used = [...new Set(steps.flat())];
  const self = used.filter((tool) => groupsHold(steps, [[tool, tool]])).map((tool) => [[tool, tool]]);
  const pairs: string[][][] = [];
  for (const a of used) for (const b of used) if (a < b && groupsHold(steps, [[a, b]])) pairs.push([[a, b]]);
  const overlaps: string[][][] = [];
  for (const a of used) for (const b of used) for (const c of used) {
    if (a !== b && a !== c && b < c && groupsHold(steps, [[a, b], [a, c]])) overlaps.push([[a, b], [a, c]]);
  }
  if (prefer === 'self' && self.length > 0) return random.pick(self);
  if (prefer === 'overlap' && overlaps.length > 0) return random.pick(overlaps);
  return pairs.length > 0 ? random.pick(pairs) : undefined;
}

/**
 * Ordering chains the reference satisfies: each question chain's tools (first attempts in strictly
 * increasing steps), whole or as a part of 2+ tools; usually one chain of 2, sometimes several (up to 9)
 * or long ones (up to 7), as in CCTU. All come from one order of first attempts, so they never conflict.
 */
function orderingChains(shape: ReferenceShape, random: SeededRandom): string[][] {
  const { steps } = shape;
  const candidates = new Map<string, string[]>();
  for (const chain of shape.chains) {
    const ordered: string[] = [];
    for (const tool of chain) if (ordered.length === 0 || firstStep(steps, tool) > firstStep(steps, ordered[ordered.length - 1] as string)) ordered.push(tool);
    if (ordered.length < 2) continue;
    candidates.set(ordered.join('>'), ordered);
    for (let from = 0; from < ordered.length; from += 1) {
      for (let to = from + 2; to <= ordered.length; to += 1) candidates.set(ordered.slice(from, to).join('>'), ordered.slice(from, to));
    }
  }
  const all = [...candidates.values()];
  if (all.length === 0) return [];
  const longest = all.reduce((best, chain) => (chain.length > best.length ? chain : best));
  const count = Math.min(all.length, random.weighted([[1, 0.55], [2, 0.15], [3, 0.1], [4, 0.05], [5, 0.04], [6, 0.03], [7, 0.03], [8, 0.02], [9, 0.03]] as const));
  // Long chains (5–7 tools) are rare in questions, so when a task has one its ordering constraint names it.
  if (count === 1) return [longest.length >= 5 || (longest.length > 2 && random.chance(0.5)) ? longest : random.pick(all.filter((chain) => chain.length === 2))];
  return [longest, ...random.shuffle(all.filter((chain) => chain !== longest)).slice(0, count - 1)];
}
