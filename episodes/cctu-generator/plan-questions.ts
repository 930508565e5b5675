import { DOMAINS, roleOf, type DomainSpec, type Entity, type ToolDef, type World } from '../../databases/worlds/index.ts';
import type { SeededRandom } from '../../databases/seeded-random.ts';
import type { CctuStructure } from '../../src/schemas/cctu-task.ts';

/** One retrieval the reference makes: a tool call on an entity, and the field whose value answers it. */
export interface Hop {
  tool: string;
  domain: string;
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

interface Located {
  spec: DomainSpec;
  tool: ToolDef;
}

const SPECS = new Map<string, DomainSpec>(DOMAINS.map((spec) => [spec.domain, spec] as const));

/** Lookup tools of `<domain>.<kind>` (the ones that return fields; distractors never answer). */
const LOOKUPS = new Map<string, Located[]>();
for (const spec of DOMAINS) {
  for (const tool of spec.tools) {
    if (roleOf(tool) !== 'lookup') continue;
    const key = `${spec.domain}.${tool[1]}`;
    const list: Located[] = LOOKUPS.get(key) ?? [];
    list.push({ spec, tool });
    LOOKUPS.set(key, list);
  }
}

/** The `<domain>.<kind>` a field of a kind points at (same domain for `ref:`, another for `xref:`), if any. */
function target(spec: DomainSpec, kind: string, field: string): string | undefined {
  const generator = spec.kinds[kind]?.attributes[field] ?? '';
  if (generator.startsWith('ref:')) return `${spec.domain}.${generator.slice(4)}`;
  if (generator.startsWith('xref:')) return generator.slice(5);
  return undefined;
}

function entityOf(world: World, kindKey: string, name: string): Entity {
  const entity = world.entities[kindKey]?.find((candidate) => candidate.name === name);
  if (!entity) throw new Error(`${kindKey}: no entity "${name}"`);
  return entity;
}

function nounOf(spec: DomainSpec, kind: string): string {
  return spec.nouns[kind] ?? kind;
}

function hop({ spec, tool }: Located, entity: Entity, field: string): Hop {
  const [name, kind, parameter] = tool;
  return {
    tool: name,
    domain: spec.domain,
    parameter,
    entity: entity.name,
    field,
    value: String(entity[field]),
    question: `What is the ${label(field)} of the ${nounOf(spec, kind)} "${entity.name}"?`,
  };
}

/**
 * A chain of `length` hops starting at a random entity of `start` (a lookup tool): every hop but the last
 * follows a relation (within the domain or across domains) whose value names the next hop's entity; the
 * tools of a chain are all different, so the chain can be an ordering constraint. Undefined at a dead end.
 */
function walk(world: World, random: SeededRandom, start: Located, length: number): QuestionChain | undefined {
  const hops: Hop[] = [];
  const used = new Set<string>();
  let current: Located | undefined = start;
  let entity: Entity = random.pick<Entity>(world.entities[`${start.spec.domain}.${start.tool[1]}`] ?? []);
  for (let index = 0; index < length && current; index += 1) {
    const { spec, tool } = current;
    used.add(tool[0]);
    const last = index === length - 1;
    const next = (field: string): Located[] => {
      const kindKey = target(spec, tool[1], field);
      return kindKey ? (LOOKUPS.get(kindKey) ?? []).filter((candidate) => !used.has(candidate.tool[0])) : [];
    };
    const candidates: string[] = tool[3].filter((field: string) => last || next(field).length > 0);
    if (candidates.length === 0) return undefined;
    const field: string = random.pick<string>(candidates);
    hops.push(hop(current, entity, field));
    if (last) break;
    const kindKey = target(spec, tool[1], field) as string;
    entity = entityOf(world, kindKey, String(entity[field]));
    current = random.pick<Located>(next(field));
  }
  return hops.length === length ? { hops, question: chainQuestion(hops) } : undefined;
}

/** "What is the birthplace of the key figure of the historical event "X"?" — the chain read outside in. */
function chainQuestion(hops: Hop[]): string {
  if (hops.length === 1) return (hops[0] as Hop).question;
  const first = hops[0] as Hop;
  const spec = SPECS.get(first.domain) as DomainSpec;
  const kind = spec.tools.find((tool) => tool[0] === first.tool)?.[1] ?? '';
  let phrase = `the ${nounOf(spec, kind)} "${first.entity}"`;
  for (const step of hops.slice(0, -1)) phrase = `the ${label(step.field)} of ${phrase}`;
  return `What is the ${label((hops[hops.length - 1] as Hop).field)} of ${phrase}?`;
}

/** How many hops a multi-hop chain has: mostly 2–3 as in CCTU, sometimes 4–7. */
function chainLength(random: SeededRandom, multi: boolean): number {
  if (!multi) return 1;
  const lengths: Array<readonly [number, number]> = [[2, 0.36], [3, 0.26], [4, 0.14], [5, 0.1], [6, 0.07], [7, 0.07]];
  return random.weighted(lengths);
}

export interface PlanOptions {
  /** Start two chains with the same tool on different entities (the reference then calls it twice at once). */
  repeatStart?: boolean;
  /** At least this many chains (parallel structures). */
  minChains?: number;
}

/**
 * The chains a task of this structure asks about: 1 chain (single, multi-hop) or 2–4 (parallel), of 1 hop or
 * 2–7 hops; chains start in the task's main domain and may cross into others through their relations.
 */
export function planStructure(spec: DomainSpec, world: World, structure: CctuStructure, random: SeededRandom, options: PlanOptions = {}): QuestionChain[] {
  const parallel = structure.startsWith('parallel');
  const multi = structure.endsWith('multi-hop');
  const counts: Array<readonly [number, number]> = multi ? [[2, 0.45], [3, 0.35], [4, 0.2]] : [[2, 0.5], [3, 0.4], [4, 0.1]];
  const chainCount = parallel ? Math.max(options.minChains ?? 1, random.weighted(counts)) : 1;
  const starts = spec.tools.filter((tool) => roleOf(tool) === 'lookup' && tool[3].length > 0).map((tool) => ({ spec, tool }));
  const chains: QuestionChain[] = [];
  const usedStarts = new Set<string>();
  const usedEntities = new Set<string>();
  for (let attempt = 0; chains.length < chainCount && attempt < 200; attempt += 1) {
    const repeat = options.repeatStart === true && chains.length === 1;
    const pool = repeat ? starts.filter((start) => start.tool[0] === (chains[0]?.hops[0] as Hop).tool) : starts.filter((start) => attempt >= 100 || !usedStarts.has(start.tool[0]));
    if (pool.length === 0) continue;
    const chain = walk(world, random, random.pick(pool), chainLength(random, multi));
    if (!chain) continue;
    const first = chain.hops[0] as Hop;
    if (usedEntities.has(first.entity)) continue;
    usedStarts.add(first.tool);
    usedEntities.add(first.entity);
    chains.push(chain);
  }
  if (chains.length < chainCount) throw new Error(`${spec.domain}: could not plan a ${structure} question`);
  return chains;
}
