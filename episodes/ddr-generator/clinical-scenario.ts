import { CONDITIONS } from '../../databases/clinical/conditions.ts';
import { dialectOf, type SqlDialect } from '../../mcp-servers/sql/backends/dialect.ts';
import { listText, ordinal, type FactTemplate, type ScenarioSpec } from './scenario-spec.ts';

const DIAGNOSES = [...new Set(CONDITIONS.flatMap((condition) => condition.diagnoses.map(([, description]) => description)))];
const DRUGS = [...new Set([...CONDITIONS.flatMap((condition) => condition.drugs.map(([drug]) => drug)), 'amoxicillin'])];

function mostFrequent(dialect: SqlDialect, table: string, column: string, where: string): Pick<FactTemplate, 'sql' | 'ambiguousSql'> {
  const counts = `SELECT ${column} AS value, count(*) AS n FROM ${table} WHERE ${where} GROUP BY 1`;
  return {
    sql: `SELECT value FROM ${dialect.derived(counts, 'c')} ORDER BY n DESC, value LIMIT 1`,
    ambiguousSql: `SELECT count(*) > 1 FROM ${dialect.derived(counts, 'c')} WHERE n = (SELECT max(n) FROM ${dialect.derived(counts, 'm')})`,
  };
}

const above = (value: unknown, up: string, down: string) => `${Math.abs(Number(value))} ${Number(value) < 0 ? down : up}`;

/** A patient's facts in an engine's dialect: five lookups and aggregates, six insights (trend and its size, rank, anomalies, a cross-table relationship). */
function facts(dialect: SqlDialect, id: string, context: Record<string, string>): FactTemplate[] {
  const { round, derived } = dialect;
  const stay = (alias = '') => dialect.dateMinus(`${alias}discharge_date`, `${alias}admit_date`);
  const patient = `patient_id = '${id}'`;
  const lab = CONDITIONS.find((condition) => condition.lab.test === context.test_name)!.lab;
  const labs = `SELECT value, collected_at FROM lab_results WHERE ${patient} AND test_name = '${lab.test}'`;
  const peers = Number(context.patients);
  const stays = `SELECT patient_id, ${round(`avg(${stay()})`, 2)} AS stay FROM admissions GROUP BY 1`;
  const latest = `SELECT patient_id, ${dialect.argMax('value', 'collected_at')} AS latest FROM lab_results WHERE test_name = '${lab.test}' GROUP BY 1`;
  const labTolerance = lab.decimals === 0 ? 0.5 : 10 ** -lab.decimals / 2;
  return [
    {
      id: 'admissions',
      kind: 'aggregate',
      question: `How many hospital admissions does patient ${id} have?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'admissions',
      sql: `SELECT count(*) FROM admissions WHERE ${patient}`,
      statement: (answer) => `Patient ${id} was admitted ${answer} times (${answer} admissions).`,
    },
    {
      id: 'mean-length-of-stay',
      kind: 'aggregate',
      question: `What is the average length of stay of patient ${id}, in days?`,
      answer_type: 'number',
      tolerance: 0.1,
      unit: 'days',
      sql: `SELECT ${round(`avg(${stay()})`, 1)} FROM admissions WHERE ${patient}`,
      statement: (answer) => `The average length of stay is ${answer} days.`,
    },
    {
      id: 'main-diagnosis',
      kind: 'aggregate',
      question: `Which principal diagnosis is most frequent across patient ${id}'s admissions?`,
      answer_type: 'category',
      ...mostFrequent(dialect, 'diagnoses', 'description', `${patient} AND is_primary`),
      choices: DIAGNOSES,
      statement: (answer) => `The most frequent principal diagnosis is ${answer}.`,
    },
    {
      id: 'medications',
      kind: 'lookup',
      question: `Which drugs has patient ${id} been prescribed?`,
      answer_type: 'set',
      sql: `SELECT DISTINCT drug_name FROM medications WHERE ${patient} ORDER BY drug_name`,
      choices: DRUGS,
      statement: (answer) => `Prescribed medications: ${listText(answer)}.`,
    },
    {
      id: 'admission-type',
      kind: 'aggregate',
      question: `Which admission type (emergency, urgent, elective) is most frequent for patient ${id}?`,
      answer_type: 'category',
      ...mostFrequent(dialect, 'admissions', 'admission_type', patient),
      choices: ['emergency', 'urgent', 'elective'],
      statement: (answer) => `Most admissions were ${answer} (most frequent admission type: ${answer}).`,
    },
    {
      id: 'lab-trend',
      kind: 'trend',
      question: `Did patient ${id}'s ${lab.test} improve, worsen or stay the same from the first to the last draw (same: within 5 %)?`,
      answer_type: 'direction',
      sql:
        `WITH s AS (${labs}), f AS (SELECT ${dialect.argMin('value', 'collected_at')} AS first, ${dialect.argMax('value', 'collected_at')} AS last FROM s) ` +
        `SELECT CASE WHEN abs(last - first) <= 0.05 * abs(first) THEN 'same' ` +
        `WHEN (last > first) = ${lab.higherIsBetter} THEN 'improved' ELSE 'worsened' END FROM f`,
      higher_is_better: lab.higherIsBetter,
      statement: (answer) => `${lab.test} ${answer === 'same' ? 'stayed about the same' : answer} between the first and the last draw.`,
    },
    {
      id: 'lab-change',
      kind: 'trend',
      question: `By how much did patient ${id}'s ${lab.test} change from the first to the last draw, in ${lab.unit}?`,
      answer_type: 'number',
      tolerance: labTolerance,
      unit: lab.unit,
      sql: `SELECT ${round(`${dialect.argMax('value', 'collected_at')} - ${dialect.argMin('value', 'collected_at')}`, lab.decimals)} FROM ${derived(labs, 'l')}`,
      ambiguousSql: `SELECT count(*) < 2 FROM ${derived(labs, 'l')}`,
      statement: (answer) =>
        Number(answer) === 0
          ? `${lab.test} did not change (0 ${lab.unit}) from the first to the last draw.`
          : `${lab.test} ${Number(answer) < 0 ? 'fell' : 'rose'} by ${Math.abs(Number(answer))} ${lab.unit} from the first to the last draw.`,
    },
    {
      id: 'length-of-stay-rank',
      kind: 'rank',
      question: `Among the ${peers} patients with admissions, where does patient ${id} rank by average length of stay (1 = longest)?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'rank',
      peers,
      rank_by: 'highest',
      sql: `SELECT r FROM ${derived(`SELECT patient_id, rank() OVER (ORDER BY stay DESC) AS r FROM ${derived(stays, 's')}`, 'ranked')} WHERE ${patient}`,
      ambiguousSql: `SELECT count(*) > 1 FROM ${derived(stays, 's')} WHERE stay = (SELECT stay FROM ${derived(stays, 'e')} WHERE ${patient})`,
      statement: (answer) => `By average length of stay the patient ranks ${ordinal(answer)} longest of ${peers} patients.`,
    },
    {
      id: 'latest-lab-z-score',
      kind: 'anomaly',
      question: `How many standard deviations is patient ${id}'s latest ${lab.test} from the mean latest ${lab.test} of all patients with that test (positive = above)?`,
      answer_type: 'number',
      tolerance: 0.1,
      unit: 'σ',
      sql: `WITH l AS (${latest}) SELECT ${round(`(latest - (SELECT avg(latest) FROM l)) / ${dialect.stddevSampOver('latest', 'l')}`, 2)} FROM l WHERE ${patient}`,
      statement: (answer) => `The latest ${lab.test} is ${above(answer, 'standard deviations above', 'standard deviations below')} the mean latest ${lab.test} of all patients.`,
    },
    {
      id: 'stay-vs-admission-type',
      kind: 'anomaly',
      question: `By how many days does patient ${id}'s average length of stay differ from the average stay of all admissions of the same admission types?`,
      answer_type: 'number',
      tolerance: 0.1,
      unit: 'days',
      sql:
        `WITH t AS (SELECT admission_type, avg(${stay()}) AS typical FROM admissions GROUP BY 1) ` +
        `SELECT ${round(`avg((${stay('a.')}) - t.typical)`, 1)} FROM admissions a JOIN t USING (admission_type) WHERE a.${patient}`,
      statement: (answer) => `The stays were ${above(answer, 'days longer', 'days shorter')} than the average stay of admissions of the same types.`,
    },
    {
      id: 'diagnoses-per-admission',
      kind: 'relationship',
      question: `How many diagnoses are recorded per admission of patient ${id}, on average?`,
      answer_type: 'number',
      tolerance: 0.05,
      unit: 'diagnoses',
      sql: `SELECT ${round(dialect.divide('count(d.icd_code)', 'count(DISTINCT a.admission_id)'), 2)} FROM admissions a LEFT JOIN diagnoses d USING (admission_id) WHERE a.${patient}`,
      statement: (answer) => `Each admission carries ${answer} diagnoses on average.`,
    },
  ];
}

/** The clinical scenario in an engine's dialect: "Analyze patient P-0042". */
export const clinicalScenarioFor = (dialect: SqlDialect): ScenarioSpec => ({
  database: 'clinical',
  taskPrefix: 'ddr-clinical',
  domain: 'clinical records',
  entityKind: 'patient',
  // Patients with a history worth analysing: several admissions and repeated labs.
  entitiesSql: `SELECT patient_id FROM admissions GROUP BY patient_id HAVING count(*) >= 2 ORDER BY patient_id`,
  contextSql: (id) =>
    `SELECT test_name, (SELECT count(DISTINCT patient_id) FROM admissions) AS patients FROM lab_results WHERE patient_id = '${id}' AND test_name <> 'hemoglobin' LIMIT 1`,
  query: (id) => `Analyze patient ${id}. Explore the database, find what characterises this patient, and end with FINISH: and your findings.`,
  facts: (id, context) => facts(dialect, id, context),
});

/** The clinical scenario as the committed suite has it (DuckDB). */
export const clinicalScenario = clinicalScenarioFor(dialectOf('duckdb'));
