import { buildWorld, DOMAINS, mockToolOf, roleOf, type DomainSpec, type World } from '../../databases/worlds/index.ts';
import { solveSubqueries } from '../../src/graders/cctu.ts';
import type { MockTool } from '../../src/schemas/cctu-task.ts';
import { SeededRandom } from '../../databases/seeded-random.ts';
import { CctuTaskSchema, type CctuStructure, type CctuTask } from '../../src/schemas/cctu-task.ts';
import type { Constraint } from '../../src/schemas/constraint.ts';
import type { ReferenceStep } from '../../src/schemas/reference-step.ts';
import { TASK_SCHEMA_VERSION } from '../../src/schemas/task-base.ts';
import { composeAnswer, type AnswerFact } from './compose-answer.ts';
import { describeConstraint } from './describe-constraint.ts';
import { planStructure, type Hop, type QuestionChain } from './plan-questions.ts';
import { sampleConstraints } from './sample-constraints.ts';

export interface GenerateOptions {
  seed: number;
  /** Tasks per structure (CCTU: 50, so 200 in all). */
  perStructure?: number;
  /** Tools per task besides the ones the reference calls (CCTU: about 9 in all). */
  toolsPerTask?: number;
}

/** The suite's id prefix: `cctu2-` since the cross-domain, long-chain generator (the first suite's `cctu-` ids stay with its files). */
export const ID_PREFIX = 'cctu2';

export const STRUCTURES: Array<[CctuStructure, string]> = [
  ['single-hop', 'sh'],
  ['parallel-single-hop', 'psh'],
  ['multi-hop', 'mh'],
  ['parallel-multi-hop', 'pmh'],
];

const GENERATOR = 'episodes/cctu-generator';

function measure(text: string, unit: 'chars' | 'words'): number {
  return unit === 'words' ? text.split(/\s+/u).filter((word) => word !== '').length : Array.from(text).length;
}

/** The reference's tool-call steps: step k calls hop k of every chain that has one (chains run side by side). */
function referenceSteps(chains: QuestionChain[], random: SeededRandom): ReferenceStep[] {
  const depth = Math.max(...chains.map((chain) => chain.hops.length));
  const steps: ReferenceStep[] = [];
  for (let index = 0; index < depth; index += 1) {
    const hops = chains.map((chain) => chain.hops[index]).filter((hop): hop is Hop => hop !== undefined);
    steps.push({
      toolCalls: hops.map((hop) => ({
        name: hop.tool,
        // Now and then pass a valid nested option too, so references exercise the schemas' objects and enums.
        arguments: { [hop.parameter]: hop.entity, ...(random.chance(0.15) ? { options: { detail_level: 'brief' } } : {}) },
      })),
    });
  }
  return steps;
}

const SPECS = new Map<string, DomainSpec>(DOMAINS.map((spec) => [spec.domain, spec] as const));

function toolOf(name: string): MockTool {
  for (const spec of DOMAINS) {
    const tool = spec.tools.find((candidate) => candidate[0] === name);
    if (tool) return mockToolOf(spec, tool);
  }
  throw new Error(`no tool "${name}" in the world catalogue`);
}

/**
 * The task's tools: the ones the reference calls, the main domain's lookups (but the `_finder` ones), and about `extra`
 * distractors (other tools of the main domain first, taken in turn by task number so every tool of the
 * catalogue appears in the suite, then tools of the other domains the chains cross), shuffled.
 */
function pickTools(spec: DomainSpec, used: readonly string[], domains: readonly string[], extra: number, taskNumber: number, random: SeededRandom): MockTool[] {
  const chosen = new Set(used);
  for (const tool of spec.tools) if (roleOf(tool) === 'lookup' && tool[3].length > 0 && !tool[0].endsWith('_finder')) chosen.add(tool[0]);
  const own = spec.tools.map((tool) => tool[0]).filter((name) => !chosen.has(name));
  const rotated = own.filter((_, index) => index % 4 === taskNumber % 4);
  for (const name of rotated) chosen.add(name);
  const others = domains.slice(1).flatMap((domain) => (SPECS.get(domain) as DomainSpec).tools.map((tool) => tool[0])).filter((name) => !chosen.has(name));
  for (const name of random.shuffle(others).slice(0, Math.max(0, used.length + extra - chosen.size))) chosen.add(name);
  return random.shuffle([...chosen].map(toolOf));
}

/** What each reference call returns, computed with the tools' own code on the task's world (as the server runs it). */
function referenceOutputs(steps: ReferenceStep[], tools: readonly MockTool[], world: World): Array<{ tool: string; text: string }> {
  const outputs: Array<{ tool: string; text: string }> = [];
  for (const step of steps) {
    if (!('toolCalls' in step)) continue;
    for (const call of step.toolCalls) {
      const tool = tools.find((candidate) => candidate.name === call.name) as MockTool;
      // The generator's own tool code on its own world (the server runs the same code in an isolate).
      const run = new Function(`${tool.implementation}\nreturn run;`)() as (args: unknown, world: World) => unknown;
      outputs.push({ tool: call.name, text: JSON.stringify(run(call.arguments, world)) });
    }
  }
  return outputs;
}

function subject(question: string): string {
  return question.replace(/^What is the /, '').replace(/\?$/, '');
}

const ALL_DOMAINS = DOMAINS.map((spec) => spec.domain);

interface Plan {
  chains: QuestionChain[];
  domains: string[];
  tools: MockTool[];
  steps: ReferenceStep[];
  subqueries: CctuTask['grading']['subqueries'];
}

function subqueriesOf(chains: QuestionChain[]): CctuTask['grading']['subqueries'] {
  return chains.flatMap((chain, chainIndex) =>
    chain.hops.map((hop, hopIndex) => ({
      query: hop.question,
      tool: hop.tool,
      answer: hop.value,
      ...(hopIndex > 0 ? { dependsOn: [chains.slice(0, chainIndex).reduce((sum, previous) => sum + previous.hops.length, 0) + hopIndex - 1] } : {}),
    })),
  );
}

/**
 * Plans a question whose reference solves every subquery by the grader's own rule (one output solves at most
 * one subquery, in order: rule 8): the reference's outputs are computed with the tools' code, and a plan where
 * one output would take two subqueries' answers is drawn again.
 */
function planTask(spec: DomainSpec, structure: CctuStructure, seed: number, extra: number, taskNumber: number, random: SeededRandom, groupShape: 'self' | 'overlap' | undefined): Plan {
  const planningWorld = buildWorld(ALL_DOMAINS, seed);
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const chains = planStructure(spec, planningWorld, structure, random, { repeatStart: groupShape === 'self', minChains: groupShape === 'overlap' ? 3 : 1 });
    const domains = [...new Set([spec.domain, ...chains.flatMap((chain) => chain.hops.map((hop) => hop.domain))])];
    // A task within one domain gets distractors from a second one, as CCTU's toolsets mix domains.
    if (domains.length === 1) domains.push(random.pick(ALL_DOMAINS.filter((domain) => domain !== spec.domain)));
    const used = [...new Set(chains.flatMap((chain) => chain.hops.map((hop) => hop.tool)))];
    const tools = pickTools(spec, used, domains, extra, taskNumber, random);
    const steps = referenceSteps(chains, random);
    const subqueries = subqueriesOf(chains);
    if (solveSubqueries(subqueries, referenceOutputs(steps, tools, buildWorld(domains, seed))).every(Boolean)) return { chains, domains, tools, steps, subqueries };
  }
  throw new Error(`${spec.domain}: no ${structure} question whose reference solves every subquery`);
}

/** One task: plan the question, play it on the world to get the reference, then sample constraints it satisfies. */
function generateTask(spec: DomainSpec, structure: CctuStructure, id: string, seed: number, extra: number, taskNumber: number): CctuTask {
  const random = SeededRandom.stream(seed, id);
  // CCTU has self-groups [t, t] in 11 tasks and overlapping groups in 2: some parallel tasks are planned for them.
  const shapes: Array<readonly ['pair' | 'self' | 'overlap', number]> = [['pair', 0.74], ['self', 0.17], ['overlap', 0.09]];
  const drawn = structure.startsWith('parallel') ? random.weighted(shapes) : 'pair';
  const groupShape = drawn === 'pair' ? undefined : drawn;
  const { chains, domains, tools, steps, subqueries } = planTask(spec, structure, seed, extra, taskNumber, random, groupShape);
  const toolSteps = steps.map((step) => ('toolCalls' in step ? step.toolCalls.map((call) => call.name) : []));
  const sampled = sampleConstraints(
    { structure, steps: toolSteps, tools: tools.map((tool) => tool.name), chains: chains.map((chain) => chain.hops.map((hop) => hop.tool)), ...(groupShape ? { groupShape } : {}) },
    random,
  );

  const facts: AnswerFact[] = chains.map((chain) => ({ subject: subject(chain.question), value: (chain.hops[chain.hops.length - 1] as Hop).value }));
  const content = sampled.content ? { ...sampled.content } : undefined;
  if (content?.keywords) content.keywords = chains.map((chain) => (chain.hops[0] as Hop).entity);
  const answer = composeAnswer(facts, sampled.format, content);

  const constraints: Constraint[] = [...sampled.constraints];
  if (sampled.format) constraints.push({ id: 'format', category: 'response.format', params: sampled.format });
  if (content) constraints.push({ id: 'content', category: 'response.content', params: content });
  if (sampled.length) {
    // Length bounds from CCTU's common values that the reference answer fits (max none when none fits).
    const size = measure(answer, sampled.length.unit);
    const maxes = sampled.length.chooseFrom.max.filter((max) => max === undefined || max >= size);
    const mins = sampled.length.chooseFrom.min.filter((min) => min <= size);
    const max = random.pick(maxes);
    const min = random.pick(mins.filter((value) => max === undefined || value < max));
    constraints.push({ id: 'length', category: 'response.length', params: { min, max, unit: sampled.length.unit } });
  }
  for (const constraint of constraints) constraint.description = describeConstraint(constraint);

  const query =
    chains.length === 1
      ? (chains[0] as QuestionChain).question
      : `Please answer all of the following: ${chains.map((chain, index) => `(${index + 1}) ${chain.question}`).join(' ')}`;
  const system = [
    spec.scenario,
    'Answer the question using the tools provided. Follow every requirement below; a call or answer that breaks one is refused with an explanation, and you may correct yourself.',
    'Requirements:',
    ...constraints.map((constraint) => `- ${constraint.description}`),
  ].join('\n');

  return CctuTaskSchema.parse({
    schemaVersion: TASK_SCHEMA_VERSION,
    id,
    style: 'cctu',
    title: `${spec.domain}: ${chains.map((chain) => subject(chain.question)).join('; ')}`.slice(0, 160),
    domain: spec.domain,
    system,
    query,
    environment: { servers: [{ name: 'mock-tools', options: { worldDomain: domains, worldSeed: seed } }] },
    tools,
    constraints,
    limits: { maxRounds: 30, maxToolCalls: 100 },
    reference: { trajectory: [...steps, { answer }] },
    grading: { structure, subqueries },
    metadata: { generator: GENERATOR, seed, hops: Math.max(...chains.map((chain) => chain.hops.length)), constraintTypes: constraints.length },
  });
}

/**
 * The CCTU-style suite for a seed: `perStructure` tasks of each of the four structures, domains taken
 * in turn (offset per structure), each task seeded from (seed, id) so one task can be regenerated alone.
 */
export function generateSuite(options: GenerateOptions): CctuTask[] {
  const perStructure = options.perStructure ?? 50;
  const tasks: CctuTask[] = [];
  for (const [structureIndex, [structure, short]] of STRUCTURES.entries()) {
    for (let index = 0; index < perStructure; index += 1) {
      const spec = DOMAINS[(index + structureIndex * 7 + options.seed) % DOMAINS.length] as DomainSpec;
      const taskNumber = structureIndex * perStructure + index;
      tasks.push(generateTask(spec, structure, `${ID_PREFIX}-${short}-${String(index + 1).padStart(3, '0')}`, options.seed, options.toolsPerTask ?? 6, Math.floor(taskNumber / DOMAINS.length)));
    }
  }
  return tasks;
}
