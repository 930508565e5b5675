import { DOMAINS } from './catalog.ts';
import type { DomainSpec, Entity, World } from './domain-spec.ts';
import { SeededRandom } from '../seeded-random.ts';

const ONSETS = ['Al', 'Bel', 'Cor', 'Dra', 'El', 'Fen', 'Gal', 'Hal', 'Is', 'Jor', 'Kar', 'Lor', 'Mar', 'Nor', 'Or', 'Pel', 'Quel', 'Ros', 'Sel', 'Tor', 'Ul', 'Val', 'Wyn', 'Zan'];
const MIDDLES = ['a', 'e', 'i', 'o', 'u', 'ar', 'en', 'or', 'il', 'an'];
const CODAS = ['dor', 'mere', 'wick', 'ton', 'gard', 'vale', 'mont', 'rin', 'sk', 'th', 'ra', 'ven', 'lis', 'brook'];
const FIRST = ['Ada', 'Bruno', 'Celia', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kaia', 'Luis', 'Mira', 'Nikolai', 'Olga', 'Pavel', 'Rosa', 'Soren', 'Tamsin', 'Umar', 'Vera', 'Wendel', 'Yara', 'Zeno'];
const LAST = ['Ashcombe', 'Brandt', 'Castell', 'Dravik', 'Esterhaz', 'Falk', 'Grimaldi', 'Holloway', 'Ivers', 'Jansky', 'Kowal', 'Lindqvist', 'Moreau', 'Nakashima', 'Okafor', 'Petrakis', 'Quintero', 'Rasmussen', 'Sokolova', 'Tavares', 'Ulrich', 'Varga', 'Whitlock', 'Zeller'];

function placeName(random: SeededRandom): string {
  const middle = random.chance(0.5) ? random.pick(MIDDLES) : '';
  return `${random.pick(ONSETS)}${middle}${random.pick(CODAS)}`;
}

function fillTemplate(template: string, random: SeededRandom): string {
  return template.replace(/\{([^}]+)\}/g, (_, body: string) => {
    if (body === 'place') return placeName(random);
    if (body === 'person') return `${random.pick(FIRST)} ${random.pick(LAST)}`;
    return random.pick(body.split('|'));
  });
}

function domainSpec(domain: string): DomainSpec {
  const spec = DOMAINS.find((candidate) => candidate.domain === domain);
  if (!spec) throw new Error(`unknown world domain "${domain}" (known: ${DOMAINS.map((candidate) => candidate.domain).join(', ')})`);
  return spec;
}

/** The entity names of each kind of a domain (unique per kind), drawn first from the domain's stream. */
function domainNames(spec: DomainSpec, random: SeededRandom): Record<string, string[]> {
  const names: Record<string, string[]> = {};
  for (const [kind, kindSpec] of Object.entries(spec.kinds)) {
    const taken = new Set<string>();
    for (let attempt = 0; taken.size < kindSpec.count && attempt < kindSpec.count * 50; attempt += 1) {
      taken.add(fillTemplate(random.pick(kindSpec.name), random));
    }
    names[kind] = [...taken];
  }
  return names;
}

/** The names of `<domain>.<kind>` for a seed (the same draws buildDomain makes first). */
function namesOf(target: string, seed: number): string[] {
  const [domain = '', kind = ''] = target.split('.');
  const names = domainNames(domainSpec(domain), SeededRandom.stream(seed, `world:${domain}`))[kind];
  if (!names) throw new Error(`xref:${target}: no kind "${kind}" in domain "${domain}"`);
  return names;
}

/** Builds one domain's entities: names first (unique per kind), then attributes, relations pointing at real names. */
function buildDomain(spec: DomainSpec, seed: number): Record<string, Entity[]> {
  const random = SeededRandom.stream(seed, `world:${spec.domain}`);
  const names = domainNames(spec, random);
  // Cross-domain relations come from a stream of their own, after everything else.
  const bridges = SeededRandom.stream(seed, `world-bridges:${spec.domain}`);
  const entities: Record<string, Entity[]> = {};
  for (const [kind, kindSpec] of Object.entries(spec.kinds)) {
    entities[`${spec.domain}.${kind}`] = (names[kind] ?? []).map((name) => {
      const entity: Entity = { name };
      for (const [attribute, generator] of Object.entries(kindSpec.attributes)) {
        const [type, argument = ''] = generator.split(/:(.*)/s);
        if (type === 'int') {
          const [low, high] = argument.split('-').map(Number);
          entity[attribute] = random.int(low ?? 0, high ?? 0);
        } else if (type === 'pick') {
          entity[attribute] = random.pick(argument.split('|'));
        } else if (type === 'xref') {
          continue;
        } else if (type === 'ref') {
          const targets = names[argument];
          if (!targets || targets.length === 0) throw new Error(`${spec.domain}.${kind}.${attribute}: no kind "${argument}" to relate to`);
          entity[attribute] = random.pick(targets.filter((target) => target !== name));
        } else {
          throw new Error(`${spec.domain}.${kind}.${attribute}: unknown attribute generator "${generator}"`);
        }
      }
      return entity;
    });
  }
  for (const [kind, kindSpec] of Object.entries(spec.kinds)) {
    for (const [attribute, generator] of Object.entries(kindSpec.attributes)) {
      if (!generator.startsWith('xref:')) continue;
      const targets = namesOf(generator.slice(5), seed);
      for (const entity of entities[`${spec.domain}.${kind}`] ?? []) entity[attribute] = bridges.pick(targets);
    }
  }
  return entities;
}

const cache = new Map<string, World>();

/**
 * The seeded world of one or more domains: the same (domains, seed) always gives the same entities,
 * so a task names its world instead of carrying it. Memoized; callers must not mutate the result.
 */
export function buildWorld(domains: string | readonly string[], seed: number): World {
  const list = typeof domains === 'string' ? [domains] : [...domains];
  const key = `${list.join('+')}#${seed}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const world: World = { domains: list, seed, entities: {} };
  for (const domain of list) Object.assign(world.entities, buildDomain(domainSpec(domain), seed));
  cache.set(key, world);
  return world;
}

export { domainSpec };
