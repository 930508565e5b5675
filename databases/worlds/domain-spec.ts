/**
 * A domain of the CCTU-style worlds, declared as data: entity kinds with attributes and relations, and the
 * tools that retrieve them. Attribute specs: `int:LO-HI`, `pick:a|b|c`, `ref:<kind>` (a relation to another
 * entity of the domain), `xref:<domain>.<kind>` (a relation to an entity of another domain; drawn from a stream
 * of its own, so adding one never changes the other values of a world). Name templates: `{place}` (a generated place name), `{person}` (first + last name),
 * `{a|b|c}` (one of), anything else literal.
 */
export interface KindSpec {
  count: number;
  /** One or more name templates. */
  name: string[];
  attributes: Record<string, string>;
}

/**
 * [name, kind, key parameter, returned fields, description, role] — every (kind, field) is returned by one
 * lookup tool. Role `lookup` (the default) returns fields of one entity; `search` lists entity names matching
 * a filter and `revisions` shows a record's edit history: both are distractors that answer no question.
 */
export type ToolRole = 'lookup' | 'search' | 'revisions';
export type ToolDef = [name: string, kind: string, parameter: string, fields: string[], description: string, role?: ToolRole];

export interface DomainSpec {
  domain: string;
  /** Scenario context the task's system message opens with. */
  scenario: string;
  /** What one entity of each kind is called in questions ("historical event"). */
  nouns: Record<string, string>;
  kinds: Record<string, KindSpec>;
  tools: ToolDef[];
}

/** One entity of a world: its name plus attribute values (relations hold the related entity's name). */
export type Entity = { name: string } & Record<string, string | number>;

/** A built world: entities by `<domain>.<kind>`. */
export interface World {
  domains: string[];
  seed: number;
  entities: Record<string, Entity[]>;
}
