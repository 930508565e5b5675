export { importCctu, taskIdOf, CCTU_MAX_ROUNDS, CCTU_TOOL_TIMEOUT_MS } from './import-cctu.ts';
export { checkOutDir, writeSuite } from './write-suite.ts';
