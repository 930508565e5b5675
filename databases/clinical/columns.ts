import type { TableDoc } from '../tables/index.ts';

/** The clinical scenario's tables and field documentation (served by `get_field_description`). */
export const CLINICAL_TABLES: TableDoc[] = [
  {
    name: 'patients',
    description: 'One row per (synthetic) patient.',
    columns: [
      { name: 'patient_id', type: 'VARCHAR PRIMARY KEY', description: 'Patient identifier, "P-0001" … ' },
      { name: 'sex', type: 'VARCHAR', description: 'Sex recorded at registration: F or M.' },
      { name: 'birth_year', type: 'INTEGER', description: 'Year of birth.' },
      { name: 'smoker', type: 'BOOLEAN', description: 'Current smoker at registration.' },
      { name: 'insurance', type: 'VARCHAR', description: 'Payer: medicare, medicaid, private or self-pay.' },
      { name: 'registered_on', type: 'DATE', description: 'Date the patient was first registered.' },
    ],
  },
  {
    name: 'admissions',
    description: 'Hospital stays: one row per admission of a patient.',
    columns: [
      { name: 'admission_id', type: 'VARCHAR PRIMARY KEY', description: 'Admission identifier, "ADM-00001" …' },
      { name: 'patient_id', type: 'VARCHAR', description: 'The admitted patient (patients.patient_id).' },
      { name: 'admit_date', type: 'DATE', description: 'Day of admission.' },
      { name: 'discharge_date', type: 'DATE', description: 'Day of discharge; length of stay = discharge_date - admit_date, in days.' },
      { name: 'admission_type', type: 'VARCHAR', description: 'emergency, urgent or elective.' },
      { name: 'ward', type: 'VARCHAR', description: 'Ward that cared for the patient (cardiology, nephrology, endocrinology, pulmonology, internal medicine).' },
      { name: 'discharge_disposition', type: 'VARCHAR', description: 'Where the patient went: home, rehab, skilled nursing or transfer.' },
    ],
  },
  {
    name: 'diagnoses',
    description: 'Diagnoses coded during an admission (ICD-10 style codes).',
    columns: [
      { name: 'admission_id', type: 'VARCHAR', description: 'The admission (admissions.admission_id).' },
      { name: 'patient_id', type: 'VARCHAR', description: 'The patient (patients.patient_id).' },
      { name: 'icd_code', type: 'VARCHAR', description: 'ICD-10 style code, e.g. E11.9.' },
      { name: 'description', type: 'VARCHAR', description: 'Human-readable name of the diagnosis.' },
      { name: 'is_primary', type: 'BOOLEAN', description: 'TRUE for the principal diagnosis of the admission (one per admission).' },
    ],
  },
  {
    name: 'lab_results',
    description: 'Laboratory measurements over time, in hospital (admission_id set) or at outpatient visits (admission_id NULL).',
    columns: [
      { name: 'patient_id', type: 'VARCHAR', description: 'The patient (patients.patient_id).' },
      { name: 'admission_id', type: 'VARCHAR', description: 'The admission during which it was drawn, NULL for outpatient draws.' },
      { name: 'test_name', type: 'VARCHAR', description: 'Test: HbA1c, creatinine, BNP, LDL, FEV1, hemoglobin.' },
      { name: 'value', type: 'DOUBLE', description: 'Measured value, in `unit`.' },
      { name: 'unit', type: 'VARCHAR', description: 'Unit of the value: % (HbA1c, FEV1 as % predicted), mg/dL (creatinine, LDL), pg/mL (BNP), g/dL (hemoglobin).' },
      { name: 'collected_at', type: 'DATE', description: 'Day the sample was collected.' },
    ],
  },
  {
    name: 'medications',
    description: 'Prescriptions: one row per drug started for a patient.',
    columns: [
      { name: 'patient_id', type: 'VARCHAR', description: 'The patient (patients.patient_id).' },
      { name: 'drug_name', type: 'VARCHAR', description: 'Generic drug name, lower case.' },
      { name: 'drug_class', type: 'VARCHAR', description: 'Pharmacological class, e.g. biguanide, statin, loop diuretic.' },
      { name: 'dose_mg', type: 'DOUBLE', description: 'Daily dose in milligrams.' },
      { name: 'start_date', type: 'DATE', description: 'Day the prescription started.' },
      { name: 'end_date', type: 'DATE', description: 'Day it stopped; NULL while still active.' },
    ],
  },
  {
    name: 'allergies',
    description: 'Recorded allergies of a patient.',
    columns: [
      { name: 'patient_id', type: 'VARCHAR', description: 'The patient (patients.patient_id).' },
      { name: 'allergen', type: 'VARCHAR', description: 'Substance: penicillin, sulfa drugs, latex, peanuts, iodine contrast, aspirin, shellfish.' },
      { name: 'reaction', type: 'VARCHAR', description: 'Observed reaction: rash, hives, anaphylaxis, swelling, nausea.' },
      { name: 'severity', type: 'VARCHAR', description: 'mild, moderate or severe.' },
    ],
  },
];
