export { generatePlanSuite, STRATA, type Stratum, type GeneratePlanSuiteOptions } from './generate-plan-suite.ts';
export { DATA_BLOCKS, type DataBlock } from './data-blocks.ts';
export { TRANSCRIPT_BLOCKS, type TranscriptBlock } from './transcript-blocks.ts';
export { PLAN_SYSTEM_PROMPT } from './plan-system-prompt.ts';
export { writePlanSuite } from './main.ts';
