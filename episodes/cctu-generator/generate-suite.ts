import { buildWorld, DOMAINS, mockToolsOf, type DomainSpec } from '../../databases/worlds/index.ts';
import { createRandom, type Random } from '../../databases/worlds/random.ts';
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
  /** Tools per task (CCTU: about 9). */
  toolsPerTask?: number;
}

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
function referenceSteps(chains: QuestionChain[], random: Random): ReferenceStep[] {
  const depth = Math.max(...chains.map((chain) => chain.hops.length));
  const steps: ReferenceStep[] = [];
  for (let index = 0; index < depth; index += 1) {
    const hops = chains.map((chain) => chain.hops[index]).filter((hop): hop is Hop => hop !== undefined);
    steps.push({
      toolCalls: hops.map((hop) => ({
        name: hop.tool,
        // Now and then pass a valid optional argument too, so references exercise the schemas' enums.
        arguments: { [hop.parameter]: hop.entity, ...(random.chance(0.15) ? { detail_level: 'brief' } : {}) },
      })),
    });
  }
  return steps;
}

/** Tools of the main domain plus distractors of a second domain, about `count` in all, shuffled. */
function pickTools(spec: DomainSpec, other: DomainSpec, count: number, random: Random): ReturnType<typeof mockToolsOf> {
  const own = mockToolsOf(spec);
  const extra = random.sample(mockToolsOf(other), Math.max(0, count - own.length));
  return random.shuffle([...own, ...extra]);
}

function subject(question: string): string {
  return question.replace(/^What is the /, '').replace(/\?$/, '');
}

/** One task: plan the question, play it on the world to get the reference, then sample constraints it satisfies. */
function generateTask(spec: DomainSpec, structure: CctuStructure, id: string, seed: number, toolsPerTask: number): CctuTask {
  const random = createRandom(seed, id);
  const other = random.pick(DOMAINS.filter((candidate) => candidate.domain !== spec.domain));
  const world = buildWorld([spec.domain, other.domain], seed);
  const chains = planStructure(spec, world, structure, random);
  const tools = pickTools(spec, other, toolsPerTask, random);
  // The optional parameter a reference call may pass must be one its tool declares.
  const steps = referenceSteps(chains, random).map((step) =>
    'toolCalls' in step
      ? {
          toolCalls: step.toolCalls.map((call) => {
            const declared = (tools.find((tool) => tool.name === call.name)?.parameters.properties ?? {}) as Record<string, unknown>;
            return { name: call.name, arguments: Object.fromEntries(Object.entries(call.arguments).filter(([key]) => key in declared)) };
          }),
        }
      : step,
  );
  const toolSteps = steps.map((step) => ('toolCalls' in step ? step.toolCalls.map((call) => call.name) : []));
  const sampled = sampleConstraints({ structure, steps: toolSteps, tools: tools.map((tool) => tool.name) }, random);

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
  const subqueries = chains.flatMap((chain, chainIndex) =>
    chain.hops.map((hop, hopIndex) => ({
      query: hop.question,
      tool: hop.tool,
      answer: hop.value,
      ...(hopIndex > 0 ? { dependsOn: [chains.slice(0, chainIndex).reduce((sum, previous) => sum + previous.hops.length, 0) + hopIndex - 1] } : {}),
    })),
  );
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
    environment: { servers: [{ name: 'mock-tools', options: { worldDomain: [spec.domain, other.domain], worldSeed: seed } }] },
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
      const spec = DOMAINS[(index + structureIndex * 5 + options.seed) % DOMAINS.length] as DomainSpec;
      tasks.push(generateTask(spec, structure, `cctu-${short}-${String(index + 1).padStart(3, '0')}`, options.seed, options.toolsPerTask ?? 9));
    }
  }
  return tasks;
}
