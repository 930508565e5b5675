import type { Random } from '../../databases/worlds/random.ts';
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
function upperBound(random: Random, common: readonly number[], needed: number): number {
  const fits = common.filter((value) => value >= needed);
  return fits.length > 0 ? random.pick(fits) : needed + random.int(0, 2);
}

function lowerBound(random: Random, needed: number, probabilityZero: number): number {
  return needed === 0 || random.chance(probabilityZero) ? 0 : random.int(1, needed);
}

/**
 * Samples a task's constraints the CCTU way, from its reference: resource (rounds) and toolset always;
 * every other kind with about 50 % — sequential dependencies only in multi-hop structures, parallel
 * dependencies and parallel-call counts only in parallel ones — with values the reference satisfies.
 */
export function sampleConstraints(shape: ReferenceShape, random: Random): SampledConstraints {
  const { steps, structure } = shape;
  const parallel = structure.startsWith('parallel');
  const multi = structure.endsWith('multi-hop');
  const rounds = steps.length + 1;
  const calls = steps.flat();
  const constraints: Constraint[] = [];
  const add = <C extends Constraint['category']>(category: C, params: Params<C>): void => {
    constraints.push({ id: category.split('.')[1] as string, category, params } as Constraint);
  };

  // Rounds: max 20 in about half the cases, otherwise CCTU's common small values that still fit.
  add('resource.interaction_rounds', {
    min: lowerBound(random, rounds, 0.75),
    max: random.chance(0.5) ? 20 : upperBound(random, [3, 8, 10, 5, 2, 3, 5], rounds),
  });
  if (random.chance(OPTIONAL_PROBABILITY)) {
    add('resource.tool_call_count', { min: lowerBound(random, calls.length, 0.75), max: upperBound(random, [10, 3, 2, 5, 4, 8], calls.length) });
  }
  if (random.chance(OPTIONAL_PROBABILITY)) {
    // Usually one tool limited (62 of 106 in CCTU); sometimes 2–8. Tools the reference uses first, to 1–2 calls.
    const used = [...new Set(calls)];
    const count = random.chance(0.6) ? 1 : Math.min(shape.tools.length, random.weighted([[2, 0.4], [3, 0.25], [4, 0.15], [5, 0.1], [6, 0.05], [8, 0.05]] as const));
    const pool = random.chance(0.7) ? [...random.shuffle(used), ...random.shuffle(shape.tools.filter((tool) => !used.includes(tool)))] : random.shuffle(shape.tools);
    const chosen = pool.slice(0, count);
    const limits: Record<string, number> = {};
    for (const tool of chosen) {
      const needed = calls.filter((name) => name === tool).length;
      limits[tool] = Math.max(needed, random.weighted([[1, 0.6], [2, 0.4]] as const));
    }
    add('resource.specific_tool_call_count', { limits });
  }
  if (multi && random.chance(OPTIONAL_PROBABILITY)) {
    // A chain of tools whose first attempts come in strictly increasing steps of the reference.
    const ordered = [...new Set(calls)].sort((a, b) => firstStep(steps, a) - firstStep(steps, b));
    const pairs: string[][] = [];
    for (const a of ordered) for (const b of ordered) if (firstStep(steps, a) < firstStep(steps, b)) pairs.push([a, b]);
    const longest: string[] = [];
    for (const tool of ordered) if (longest.length === 0 || firstStep(steps, tool) > firstStep(steps, longest[longest.length - 1] as string)) longest.push(tool);
    const chain = longest.length > 2 && random.chance(0.3) ? longest : pairs.length > 0 ? random.pick(pairs) : undefined;
    if (chain) add('behavior.sequential_dependencies', { chains: [chain] });
  }
  if (parallel && random.chance(OPTIONAL_PROBABILITY)) {
    // A pair of distinct tools that appear together in every reference step that calls either of them.
    const used = [...new Set(calls)];
    const pairs: string[][] = [];
    for (const a of used) for (const b of used) {
      if (a < b && steps.every((step) => step.includes(a) === step.includes(b))) pairs.push([a, b]);
    }
    if (pairs.length > 0) add('behavior.parallel_dependencies', { groups: [random.pick(pairs)] });
  }
  if (parallel && random.chance(OPTIONAL_PROBABILITY)) {
    const unit = random.chance(0.85) ? 'type' : 'times';
    const perStep = steps.map((step) => (unit === 'type' ? new Set(step).size : step.length));
    const most = Math.max(...perStep);
    const min = most >= 2 && random.chance(0.85) ? 2 : random.int(0, Math.min(1, most));
    const max = random.chance(0.7) ? undefined : upperBound(random, [2, 3, 4], most);
    add('behavior.parallel_calls_count', { min, max, unit });
  }
  add('toolset.available_tools', {});
  add('toolset.required_parameters', {});
  add('toolset.parameter_types', {});

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
function sampleContent(random: Random, format: string | undefined): Params<'response.content'> {
  const structured = format === 'json' || format === 'table';
  const content: Params<'response.content'> = {};
  // Keywords are the entities asked about: a JSON answer holds only the values, so it gets no keywords.
  const kinds = random.sample(
    format === 'json' ? ['identifiers'] : structured ? ['identifiers', 'identifiers', 'keywords'] : ['identifiers', 'punctuation', 'start', 'end', 'keywords'],
    random.int(1, 2),
  );
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
