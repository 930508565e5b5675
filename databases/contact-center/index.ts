export { buildContactCenter, buildStatements, DEFAULT_CALLS, DEFAULT_SEED } from './build-contact-center.ts';
export type { BuildContactCenterOptions, BuildContactCenterResult } from './build-contact-center.ts';
export { applyColumnComments, CONTACT_CENTER_TABLES } from './columns.ts';
export type { TableDoc } from './columns.ts';
export { EFFECTS } from './effects.ts';
export { measurePatterns } from './measure-patterns.ts';
export { PLANTED_PATTERNS } from './patterns.ts';
export type { PlantedPattern } from './patterns.ts';
