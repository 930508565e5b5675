import { CONDITIONS, ALLERGENS } from '../../databases/clinical/conditions.ts';
import { listText, type FactTemplate, type ScenarioSpec } from './scenario-spec.ts';

const DIAGNOSES = [...new Set(CONDITIONS.flatMap((condition) => condition.diagnoses.map(([, description]) => description)))];
const DRUGS = [...new Set([...CONDITIONS.flatMap((condition) => condition.drugs.map(([drug]) => drug)), 'amoxicillin'])];

function facts(id: string, context: Record<string, string>): FactTemplate[] {
  const patient = `patient_id = '${id}'`;
  const lab = CONDITIONS.find((condition) => condition.lab.test === context.test_name)!.lab;
  const labs = `SELECT value, collected_at FROM lab_results WHERE ${patient} AND test_name = '${lab.test}'`;
  const testAnchor = [lab.test.toLowerCase(), ...(lab.test === 'FEV1' ? ['lung function'] : [])];
  return [
    {
      id: 'admissions',
      question: `How many hospital admissions does patient ${id} have?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'admissions',
      sql: `SELECT count(*) FROM admissions WHERE ${patient}`,
      anchors: [['admission', 'admitted', 'hospitalization', 'hospital stay']],
      statement: (answer) => `Patient ${id} was admitted ${answer} times (${answer} admissions).`,
    },
    {
      id: 'mean-length-of-stay',
      question: `What is the average length of stay of patient ${id}, in days?`,
      answer_type: 'number',
      tolerance: 0.1,
      unit: 'days',
      sql: `SELECT round(avg(discharge_date - admit_date), 1) FROM admissions WHERE ${patient}`,
      anchors: [['length of stay', 'hospital stay', 'average stay', 'days in hospital', 'admit date to discharge date', 'admission to discharge']],
      statement: (answer) => `The average length of stay is ${answer} days.`,
    },
    {
      id: 'main-diagnosis',
      question: `Which principal diagnosis is most frequent across patient ${id}'s admissions?`,
      answer_type: 'category',
      sql: `SELECT description FROM diagnoses WHERE ${patient} AND is_primary GROUP BY description ORDER BY count(*) DESC, description LIMIT 1`,
      ambiguousSql: `SELECT count(*) > 1 FROM (SELECT count(*) AS n FROM diagnoses WHERE ${patient} AND is_primary GROUP BY description) WHERE n = (SELECT max(n) FROM (SELECT count(*) AS n FROM diagnoses WHERE ${patient} AND is_primary GROUP BY description))`,
      anchors: [['diagnos'], ['principal', 'primary', 'main']],
      choices: DIAGNOSES,
      statement: (answer) => `The most frequent principal diagnosis is ${answer}.`,
    },
    {
      id: 'medications',
      question: `Which drugs has patient ${id} been prescribed?`,
      answer_type: 'set',
      sql: `SELECT DISTINCT drug_name FROM medications WHERE ${patient} ORDER BY drug_name`,
      anchors: [['medication', 'drug', 'prescri', 'treated with', 'takes', 'taking']],
      choices: DRUGS,
      statement: (answer) => `Prescribed medications: ${listText(answer)}.`,
    },
    {
      id: 'allergies',
      question: `What is patient ${id} allergic to?`,
      answer_type: 'set',
      sql: `SELECT DISTINCT allergen FROM allergies WHERE ${patient} ORDER BY allergen`,
      ambiguousSql: `SELECT count(*) = 0 FROM allergies WHERE ${patient}`,
      anchors: [['allerg']],
      choices: [...ALLERGENS],
      statement: (answer) => `Recorded allergies: ${listText(answer)}.`,
    },
    {
      id: 'lab-trend',
      question: `Did patient ${id}'s ${lab.test} improve, worsen or stay the same from the first to the last draw (same: within 5 %)?`,
      answer_type: 'direction',
      sql:
        `WITH s AS (${labs}), f AS (SELECT arg_min(value, collected_at) AS first, arg_max(value, collected_at) AS last FROM s) ` +
        `SELECT CASE WHEN abs(last - first) <= 0.05 * abs(first) THEN 'same' ` +
        `WHEN (last > first) = ${lab.higherIsBetter} THEN 'improved' ELSE 'worsened' END FROM f`,
      anchors: [testAnchor],
      higher_is_better: lab.higherIsBetter,
      statement: (answer) => `${lab.test} ${answer === 'same' ? 'stayed about the same' : answer} between the first and the last draw.`,
    },
    {
      id: 'latest-lab',
      question: `What is the most recent ${lab.test} value of patient ${id}?`,
      answer_type: 'number',
      tolerance: lab.decimals === 0 ? 0.5 : 10 ** -lab.decimals / 2,
      unit: lab.unit,
      sql: `SELECT arg_max(value, collected_at) FROM (${labs})`,
      anchors: [testAnchor, ['latest', 'last', 'most recent', 'current']],
      statement: (answer) => `The most recent ${lab.test} is ${answer} ${lab.unit}.`,
    },
    {
      id: 'admission-type',
      question: `Which admission type (emergency, urgent, elective) is most frequent for patient ${id}?`,
      answer_type: 'category',
      sql: `SELECT admission_type FROM admissions WHERE ${patient} GROUP BY admission_type ORDER BY count(*) DESC, admission_type LIMIT 1`,
      ambiguousSql: `SELECT count(*) > 1 FROM (SELECT count(*) AS n FROM admissions WHERE ${patient} GROUP BY admission_type) WHERE n = (SELECT max(n) FROM (SELECT count(*) AS n FROM admissions WHERE ${patient} GROUP BY admission_type))`,
      anchors: [['admission type', 'admitted as', 'admissions were', 'admission was', 'mostly']],
      choices: ['emergency', 'urgent', 'elective'],
      statement: (answer) => `Most admissions were ${answer} (most frequent admission type: ${answer}).`,
    },
  ];
}

/** The clinical scenario: "Analyze patient P-0042". */
export const clinicalScenario: ScenarioSpec = {
  database: 'clinical',
  taskPrefix: 'ddr-clinical',
  domain: 'clinical records',
  entityKind: 'patient',
  // Patients with a history worth analysing: several admissions and repeated labs.
  entitiesSql: `SELECT patient_id FROM admissions GROUP BY patient_id HAVING count(*) >= 2 ORDER BY patient_id`,
  contextSql: (id) => `SELECT test_name FROM lab_results WHERE patient_id = '${id}' AND test_name <> 'hemoglobin' LIMIT 1`,
  query: (id) => `Analyze patient ${id}. Explore the database, find what characterises this patient, and end with FINISH: and your findings.`,
  facts,
};
