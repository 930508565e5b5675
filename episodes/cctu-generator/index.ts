export { generateSuite, ID_PREFIX, STRUCTURES, type GenerateOptions } from './generate-suite.ts';
export { sampleConstraints, type ReferenceShape, type SampledConstraints } from './sample-constraints.ts';
export { composeAnswer, type AnswerFact } from './compose-answer.ts';
export { describeConstraint } from './describe-constraint.ts';
export { planStructure, type Hop, type QuestionChain } from './plan-questions.ts';
export { suiteStats, type SuiteStats } from './suite-stats.ts';
export { writeSuite } from './main.ts';
