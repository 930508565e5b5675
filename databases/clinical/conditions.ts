/** A chronic condition that shapes a synthetic patient's record: ward, diagnoses, tracked lab, drugs. */
export interface Condition {
  name: string;
  ward: string;
  /** Principal diagnoses, most likely first: [code, description, weight]. */
  diagnoses: Array<readonly [string, string, number]>;
  secondary: Array<readonly [string, string]>;
  lab: { test: string; unit: string; start: readonly [number, number]; higherIsBetter: boolean; decimals: number };
  drugs: Array<readonly [string, string, number]>;
}

export const CONDITIONS: Condition[] = [
  {
    name: 'diabetes',
    ward: 'endocrinology',
    diagnoses: [
      ['E11.9', 'Type 2 diabetes mellitus', 0.55],
      ['E11.65', 'Type 2 diabetes with hyperglycemia', 0.3],
      ['E16.2', 'Hypoglycemia', 0.15],
    ],
    secondary: [['I10', 'Essential hypertension'], ['E78.5', 'Hyperlipidemia'], ['E66.9', 'Obesity']],
    lab: { test: 'HbA1c', unit: '%', start: [7.2, 10.5], higherIsBetter: false, decimals: 1 },
    drugs: [['metformin', 'biguanide', 1000], ['insulin glargine', 'insulin', 20], ['semaglutide', 'GLP-1 agonist', 1], ['atorvastatin', 'statin', 40]],
  },
  {
    name: 'heart failure',
    ward: 'cardiology',
    diagnoses: [
      ['I50.9', 'Heart failure', 0.55],
      ['I48.91', 'Atrial fibrillation', 0.3],
      ['I21.4', 'Non-ST elevation myocardial infarction', 0.15],
    ],
    secondary: [['I10', 'Essential hypertension'], ['N18.3', 'Chronic kidney disease stage 3'], ['E87.1', 'Hyponatremia']],
    lab: { test: 'BNP', unit: 'pg/mL', start: [350, 1200], higherIsBetter: false, decimals: 0 },
    drugs: [['furosemide', 'loop diuretic', 40], ['carvedilol', 'beta blocker', 25], ['lisinopril', 'ACE inhibitor', 10], ['spironolactone', 'aldosterone antagonist', 25]],
  },
  {
    name: 'chronic kidney disease',
    ward: 'nephrology',
    diagnoses: [
      ['N18.4', 'Chronic kidney disease stage 4', 0.55],
      ['E87.5', 'Hyperkalemia', 0.3],
      ['N17.9', 'Acute kidney failure', 0.15],
    ],
    secondary: [['I10', 'Essential hypertension'], ['D63.1', 'Anemia in chronic kidney disease'], ['E11.9', 'Type 2 diabetes mellitus']],
    lab: { test: 'creatinine', unit: 'mg/dL', start: [1.8, 4.2], higherIsBetter: false, decimals: 2 },
    drugs: [['sevelamer', 'phosphate binder', 2400], ['epoetin alfa', 'erythropoiesis stimulant', 4], ['furosemide', 'loop diuretic', 40], ['amlodipine', 'calcium channel blocker', 5]],
  },
  {
    name: 'COPD',
    ward: 'pulmonology',
    diagnoses: [
      ['J44.1', 'COPD with acute exacerbation', 0.55],
      ['J18.9', 'Pneumonia', 0.3],
      ['J96.01', 'Acute respiratory failure with hypoxia', 0.15],
    ],
    secondary: [['F17.210', 'Nicotine dependence'], ['I10', 'Essential hypertension'], ['J45.909', 'Asthma']],
    lab: { test: 'FEV1', unit: '%', start: [35, 70], higherIsBetter: true, decimals: 0 },
    drugs: [['tiotropium', 'anticholinergic', 0.018], ['albuterol', 'beta agonist', 0.2], ['prednisone', 'corticosteroid', 40], ['azithromycin', 'macrolide', 250]],
  },
  {
    name: 'hypertension',
    ward: 'internal medicine',
    diagnoses: [
      ['I10', 'Essential hypertension', 0.55],
      ['I16.9', 'Hypertensive crisis', 0.3],
      ['I63.9', 'Cerebral infarction', 0.15],
    ],
    secondary: [['E78.5', 'Hyperlipidemia'], ['E66.9', 'Obesity'], ['G47.33', 'Obstructive sleep apnea']],
    lab: { test: 'LDL', unit: 'mg/dL', start: [125, 195], higherIsBetter: false, decimals: 0 },
    drugs: [['amlodipine', 'calcium channel blocker', 5], ['lisinopril', 'ACE inhibitor', 10], ['hydrochlorothiazide', 'thiazide diuretic', 25], ['atorvastatin', 'statin', 40]],
  },
];

export const ALLERGENS = ['penicillin', 'sulfa drugs', 'latex', 'peanuts', 'iodine contrast', 'aspirin', 'shellfish'] as const;
export const REACTIONS = ['rash', 'hives', 'anaphylaxis', 'swelling', 'nausea'] as const;
