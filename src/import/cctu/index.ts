export { importCctu, taskIdOf, CCTU_MAX_ROUNDS, CCTU_TOOL_TIMEOUT_MS } from './import-cctu.ts';
export { mapConstraint, UnmappableConstraint, PYTHON_FUNCTIONS } from './map-constraint.ts';
export { checkOutDir, writeSuite } from './write-suite.ts';
export { CctuSampleSchema, splitSampleId, type CctuSample, type CheckFile } from './cctu-sample.ts';
