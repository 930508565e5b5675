import type { DomainSpec, Entity, ToolDef, World } from '../../databases/worlds/index.ts';
import type { Random } from '../../databases/worlds/random.ts';
import type { CctuStructure } from '../../src/schemas/cctu-task.ts';

/** One retrieval the reference makes: a tool call on an entity, and the field whose value answers it. */
export interface Hop {
  tool: string;
  parameter: string;
  entity: string;
  field: string;
  value: string;
  question: string;
}

/** A chain of hops: each hop's value names the entity of the next (one hop for single-hop structures). */
export interface QuestionChain {
  hops: Hop[];
  /** The natural-language question of the whole chain. */
  question: string;
}

const label = (field: string): string => field.replace(/_/g, ' ');

function refKind(spec: DomainSpec, kind: string, field: string): string | undefined {
  const generator = spec.kinds[kind]?.attributes[field] ?? '';
  return generator.startsWith('ref:') ? generator.slice(4) : undefined;
}

/** The tool returning `field` of `kind` (one per (kind, field) by construction of the domains). */
function toolsOfKind(spec: DomainSpec, kind: string): ToolDef[] {
  return spec.tools.filter((tool) => tool[1] === kind);
}

function entityOf(world: World, spec: DomainSpec, kind: string, name: string): Entity {
  const entity = world.entities[`${spec.domain}.${kind}`]?.find((candidate) => candidate.name === name);
  if (!entity) throw new Error(`${spec.domain}.${kind}: no entity "${name}"`);
  return entity;
}

function hop(spec: DomainSpec, tool: ToolDef, entity: Entity, field: string): Hop {
  const [name, kind, parameter] = tool;
  const noun = spec.nouns[kind] ?? kind;
  return {
    tool: name,
    parameter,
    entity: entity.name,
    field,
    value: String(entity[field]),
    question: `What is the ${label(field)} of the ${noun} "${entity.name}"?`,
  };
}

/**
 * A chain of `length` hops starting at a random entity: every hop but the last follows a relation
 * (its value is the name of the next hop's entity). Returns undefined when the domain has no such path
 * from the picked start, so the caller can retry.
 */
export function planChain(spec: DomainSpec, world: World, random: Random, length: number, avoidTools: ReadonlySet<string> = new Set()): QuestionChain | undefined {
  const starts = random.shuffle(spec.tools.filter((tool) => !avoidTools.has(tool[0])));
  for (const start of starts) {
    const hops: Hop[] = [];
    let tool: ToolDef | undefined = start;
    let entity: Entity = random.pick(world.entities[`${spec.domain}.${start[1]}`] ?? []);
    for (let index = 0; index < length && tool; index += 1) {
      const last = index === length - 1;
      const candidates = tool[3].filter((field) => {
        const target = refKind(spec, (tool as ToolDef)[1], field);
        return last ? true : target !== undefined && toolsOfKind(spec, target).length > 0;
      });
      if (candidates.length === 0) break;
      const field = random.pick(candidates);
      hops.push(hop(spec, tool, entity, field));
      if (last) break;
      const target = refKind(spec, tool[1], field) as string;
      entity = entityOf(world, spec, target, String(entity[field]));
      tool = random.pick(toolsOfKind(spec, target));
    }
    if (hops.length === length) return { hops, question: chainQuestion(spec, hops) };
  }
  return undefined;
}

/** "What is the birthplace of the key figure of the historical event "X"?" — the chain read outside in. */
function chainQuestion(spec: DomainSpec, hops: Hop[]): string {
  if (hops.length === 1) return (hops[0] as Hop).question;
  const first = hops[0] as Hop;
  const startKind = spec.tools.find((tool) => tool[0] === first.tool)?.[1] ?? '';
  let phrase = `the ${spec.nouns[startKind] ?? startKind} "${first.entity}"`;
  for (const step of hops.slice(0, -1)) phrase = `the ${label(step.field)} of ${phrase}`;
  return `What is the ${label((hops[hops.length - 1] as Hop).field)} of ${phrase}?`;
}

/** The chains a task of this structure asks about: 1 or 2–3 of them, of 1 hop or 2–3 hops. */
export function planStructure(spec: DomainSpec, world: World, structure: CctuStructure, random: Random): QuestionChain[] {
  const parallel = structure.startsWith('parallel');
  const multi = structure.endsWith('multi-hop');
  const chainCount = parallel ? (multi ? 2 : random.weighted([[2, 0.6], [3, 0.4]] as const)) : 1;
  const chains: QuestionChain[] = [];
  const usedStarts = new Set<string>();
  const usedEntities = new Set<string>();
  for (let attempt = 0; chains.length < chainCount && attempt < 50; attempt += 1) {
    const length = multi ? random.weighted([[2, 0.7], [3, 0.3]] as const) : 1;
    // Parallel chains start with different tools when the domain allows, so parallel steps mix tools.
    const chain = planChain(spec, world, random, length, attempt < 25 ? usedStarts : new Set());
    if (!chain) continue;
    const start = chain.hops[0] as Hop;
    if (usedEntities.has(start.entity)) continue;
    usedStarts.add(start.tool);
    usedEntities.add(start.entity);
    chains.push(chain);
  }
  if (chains.length < chainCount) throw new Error(`${spec.domain}: could not plan a ${structure} question`);
  return chains;
}
