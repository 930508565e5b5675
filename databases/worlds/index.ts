export { buildWorld, domainSpec } from './build-world.ts';
export { DOMAINS, roleOf } from './catalog.ts';
export { mockToolOf, mockToolsOf } from './mock-tool-source.ts';
export type { DomainSpec, Entity, KindSpec, ToolDef, ToolRole, World } from './domain-spec.ts';
