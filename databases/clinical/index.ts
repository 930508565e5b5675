export { buildClinical, generateClinicalRows, type ClinicalOptions } from './build-clinical.ts';
export { CLINICAL_TABLES } from './columns.ts';
export { CONDITIONS, ALLERGENS, REACTIONS, type Condition } from './conditions.ts';
export { SeededRandom } from './seeded-random.ts';
export { insertRows, type CellValue } from './insert-rows.ts';
export { commentSql, createTableSql, type TableDoc, type ColumnDoc } from './table-doc.ts';
