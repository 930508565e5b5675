import { CLINICAL_TABLES } from './columns.ts';
import { ALLERGENS, CONDITIONS, REACTIONS } from './conditions.ts';
import { writeTables, type CellValue } from '../tables/index.ts';
import { SeededRandom } from '../seeded-random.ts';

export interface ClinicalOptions {
  seed?: number;
  /** Number of patients (default 300: builds in about a second). */
  patients?: number;
}

const DAY_MS = 86_400_000;
const START = Date.UTC(2020, 0, 1);
const SPAN_DAYS = 5 * 365;

function isoDate(day: number): string {
  return new Date(START + day * DAY_MS).toISOString().slice(0, 10);
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Rows of every clinical table, generated from one seed; the planted facts are in README.md. */
export function generateClinicalRows(options: ClinicalOptions = {}): Record<string, CellValue[][]> {
  const random = new SeededRandom(options.seed ?? 7);
  const count = options.patients ?? 300;
  const rows: Record<string, CellValue[][]> = Object.fromEntries(CLINICAL_TABLES.map((table) => [table.name, []]));
  let admissionNumber = 0;
  for (let index = 1; index <= count; index += 1) {
    const patientId = `P-${String(index).padStart(4, '0')}`;
    const condition = random.pick(CONDITIONS);
    // Planted: COPD patients are mostly smokers.
    const smoker = random.next() < (condition.name === 'COPD' ? 0.8 : 0.2);
    const registered = random.int(0, 200);
    rows.patients!.push([
      patientId,
      random.pick(['F', 'M']),
      random.int(1935, 1995),
      smoker,
      random.weighted([['medicare', 4], ['private', 3], ['medicaid', 2], ['self-pay', 1]] as const),
      isoDate(registered),
    ]);

    // Admissions: distinct, ordered, non-overlapping stays.
    const admissionCount = random.weighted([[1, 2], [2, 3], [3, 3], [4, 2], [5, 1], [6, 1]] as const);
    const gap = Math.floor((SPAN_DAYS - registered - 60) / admissionCount);
    let lastDischarge = registered;
    for (let number = 0; number < admissionCount; number += 1) {
      admissionNumber += 1;
      const admissionId = `ADM-${String(admissionNumber).padStart(5, '0')}`;
      const admit = Math.max(lastDischarge + 5, registered + number * gap + random.int(5, Math.max(6, gap - 20)));
      const type = random.weighted([['emergency', 5], ['urgent', 3], ['elective', 2]] as const);
      // Planted: emergency stays are the longest, elective the shortest.
      const meanStay = type === 'emergency' ? 6.5 : type === 'urgent' ? 4.5 : 2.5;
      const stay = Math.max(1, Math.round(random.normal(meanStay, 1.5)));
      lastDischarge = admit + stay;
      // Planted: heart-failure patients go to skilled nursing far more often.
      const disposition = random.weighted([
        ['home', 6],
        ['rehab', 1.5],
        ['skilled nursing', condition.name === 'heart failure' ? 4 : 1],
        ['transfer', 0.5],
      ] as const);
      rows.admissions!.push([admissionId, patientId, isoDate(admit), isoDate(lastDischarge), type, condition.ward, disposition]);
      const [code, description] = random.weighted(condition.diagnoses.map((entry) => [entry, entry[2]] as const));
      rows.diagnoses!.push([admissionId, patientId, code, description, true]);
      for (const [secondaryCode, secondaryDescription] of random.sample(condition.secondary, random.int(0, 2))) {
        rows.diagnoses!.push([admissionId, patientId, secondaryCode, secondaryDescription, false]);
      }
    }

    // Medications: two to four of the condition's drugs.
    const drugs = random.sample(condition.drugs, random.int(2, 4));
    // Planted: diabetic patients on semaglutide see their HbA1c fall; the others do not.
    const onSemaglutide = drugs.some(([drug]) => drug === 'semaglutide');
    for (const [drug, drugClass, dose] of drugs) {
      const start = registered + random.int(0, 300);
      const end = random.next() < 0.3 ? start + random.int(60, 600) : null;
      rows.medications!.push([patientId, drug, drugClass, dose, isoDate(start), end === null ? null : isoDate(end)]);
    }

    // Allergies; planted: no patient allergic to penicillin is ever prescribed amoxicillin.
    const allergens = random.sample(ALLERGENS, random.weighted([[0, 3], [1, 4], [2, 2], [3, 1]] as const));
    for (const allergen of allergens) {
      rows.allergies!.push([patientId, allergen, random.pick(REACTIONS), random.weighted([['mild', 5], ['moderate', 3], ['severe', 1]] as const)]);
    }
    if (!allergens.includes('penicillin') && random.next() < 0.15) {
      rows.medications!.push([patientId, 'amoxicillin', 'penicillin antibiotic', 1500, isoDate(registered + random.int(10, 900)), isoDate(registered + 920)]);
    }

    // Labs: the condition's tracked test drifts by the patient's trend; hemoglobin stays flat.
    const trend =
      condition.name === 'diabetes'
        ? onSemaglutide
          ? 'improved'
          : random.pick(['worsened', 'same'] as const)
        : random.weighted([['improved', 2], ['worsened', 2], ['same', 1]] as const);
    const lab = condition.lab;
    const first = lab.start[0] + random.next() * (lab.start[1] - lab.start[0]);
    const better = lab.higherIsBetter ? 1 : -1;
    const totalChange = trend === 'same' ? 0 : (trend === 'improved' ? better : -better) * first * (0.15 + random.next() * 0.2);
    const draws = admissionCount + random.int(2, 4);
    const drawStep = Math.floor((SPAN_DAYS - registered - 10) / draws);
    for (let draw = 0; draw < draws; draw += 1) {
      const day = registered + 1 + draw * drawStep + random.int(0, Math.max(1, drawStep - 2));
      const fraction = draws === 1 ? 1 : draw / (draws - 1);
      const value = round(first + totalChange * fraction + random.normal(0, first * 0.01), lab.decimals);
      rows.lab_results!.push([patientId, null, lab.test, value, lab.unit, isoDate(day)]);
      rows.lab_results!.push([patientId, null, 'hemoglobin', round(random.normal(12.8, 0.6), 1), 'g/dL', isoDate(day)]);
    }
  }
  // Tie in-hospital draws to the admission covering their day (a join the agent can rediscover).
  const stays = new Map<string, Array<[string, string, string]>>();
  for (const [admissionId, patientId, admit, discharge] of rows.admissions! as string[][]) {
    const list = stays.get(patientId!) ?? [];
    list.push([admissionId!, admit!, discharge!]);
    stays.set(patientId!, list);
  }
  for (const row of rows.lab_results!) {
    const covering = stays.get(row[0] as string)?.find(([, admit, discharge]) => (row[5] as string) >= admit && (row[5] as string) <= discharge);
    if (covering) row[1] = covering[0];
  }
  return rows;
}

/** Builds the clinical scenario database at `path` (replacing it). */
export async function buildClinical(path: string, options: ClinicalOptions = {}): Promise<void> {
  await writeTables(path, CLINICAL_TABLES, generateClinicalRows(options));
}
