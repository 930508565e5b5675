export { buildWorld, domainSpec } from './build-world.ts';
export { DOMAINS } from './domains.ts';
export { mockToolsOf } from './mock-tool-source.ts';
export { createRandom, type Random } from './random.ts';
export type { DomainSpec, Entity, KindSpec, ToolDef, World } from './domain-spec.ts';
