export { buildClinical, generateClinicalRows, type ClinicalOptions } from './build-clinical.ts';
export { CLINICAL_TABLES } from './columns.ts';
export { CONDITIONS, ALLERGENS, REACTIONS, type Condition } from './conditions.ts';
