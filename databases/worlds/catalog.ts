import type { DomainSpec, ToolDef } from './domain-spec.ts';
import { BASE_DOMAINS } from './domains.ts';

// The full catalogue of worlds and tools, derived from the hand-written domains (domains.ts):
// - every kind gets two cross-domain relations (`xref:`) to kinds of other domains, and a lookup tool that
//   returns each, so question chains can cross domains (a flight feeding a weather station feeding a climate zone…);
// - every kind gets two distractor tools (a directory search and a revision history) that answer no question.
// All of it is fixed by the order of the domains, never by a seed: a tool looks the same in every task.

const RELATIONS = ['affiliated', 'partner', 'associated', 'featured', 'sister', 'reference'];

const snake = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** The key parameter a kind's tools take (the one its first hand-written tool declares). */
function keyParameter(spec: DomainSpec, kind: string): string {
  return spec.tools.find((tool) => tool[1] === kind)?.[2] ?? `${kind}_name`;
}

function augment(bases: readonly DomainSpec[]): DomainSpec[] {
  const kinds = bases.flatMap((spec) => Object.keys(spec.kinds).map((kind) => ({ spec, kind })));
  const taken = new Set(bases.flatMap((spec) => spec.tools.map((tool) => tool[0])));
  const unique = (name: string, domain: string): string => {
    const chosen = taken.has(name) ? `${snake(domain)}_${name}` : name;
    if (taken.has(chosen)) throw new Error(`tool name "${chosen}" is declared twice in the world catalogue`);
    taken.add(chosen);
    return chosen;
  };
  const specs: DomainSpec[] = bases.map((spec) => {
    const kindsCopy: DomainSpec['kinds'] = {};
    for (const [kind, kindSpec] of Object.entries(spec.kinds)) kindsCopy[kind] = { ...kindSpec, attributes: { ...kindSpec.attributes } };
    return { ...spec, kinds: kindsCopy, tools: [...spec.tools] };
  });
  const bridge = (spec: DomainSpec, kind: string, index: number, step: number, shift: number): ToolDef => {
    const own = specs.find((candidate) => candidate.domain === spec.domain) as DomainSpec;
    let offset = (index * step + shift) % kinds.length;
    while ((kinds[offset] as (typeof kinds)[number]).spec.domain === spec.domain) offset = (offset + 1) % kinds.length;
    const target = kinds[offset] as (typeof kinds)[number];
    const noun = spec.nouns[kind] ?? kind;
    const targetNoun = target.spec.nouns[target.kind] ?? target.kind;
    const relation = RELATIONS[(index + shift) % RELATIONS.length] as string;
    const field = `${relation}_${snake(targetNoun)}`;
    (own.kinds[kind] as DomainSpec['kinds'][string]).attributes[field] = `xref:${target.spec.domain}.${target.kind}`;
    return [unique(`${snake(noun)}_${relation}_${snake(targetNoun)}_finder`, spec.domain), kind, keyParameter(spec, kind), [field], `Finds the ${targetNoun} (${target.spec.domain} registry) recorded as ${relation} with a ${noun}.`, 'lookup'];
  };
  kinds.forEach(({ spec, kind }, index) => {
    const own = specs.find((candidate) => candidate.domain === spec.domain) as DomainSpec;
    const noun = spec.nouns[kind] ?? kind;
    const parameter = keyParameter(spec, kind);
    own.tools.push(
      bridge(spec, kind, index, 37, 11),
      bridge(spec, kind, index, 53, 29),
      [unique(`${snake(noun)}_directory_search`, spec.domain), kind, parameter, [], `Searches the ${spec.domain} directory for ${noun} records whose names match a prefix and lists their names.`, 'search'],
      [unique(`${snake(noun)}_record_revision_viewer`, spec.domain), kind, parameter, [], `Shows the edit history of a ${noun} record in the ${spec.domain} registry: revision count and who reviewed it last.`, 'revisions'],
    );
  });
  return specs;
}

/** Every domain of the CCTU-style worlds, with its cross-domain relations and all its tools. */
export const DOMAINS: DomainSpec[] = augment(BASE_DOMAINS);

/** The role of a tool (lookup unless it says otherwise). */
export const roleOf = (tool: ToolDef): NonNullable<ToolDef[5]> => tool[5] ?? 'lookup';
