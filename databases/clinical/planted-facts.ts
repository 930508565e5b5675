/** A fact planted in a scenario database: what an analyst would find, the SQL that measures it, and a check that it holds. */
export interface PlantedFact {
  id: string;
  finding: string;
  /** A read-only query that shows the fact (for the README and for agents' reference answers). */
  sql: string;
  /** A read-only query returning one row, one boolean: TRUE when the fact holds on this build. */
  holdsSql: string;
}

/** The clinical database's planted facts (README.md); a test checks every one holds on the default build. */
export const CLINICAL_FACTS: PlantedFact[] = [
  {
    id: 'emergency-stays-longest',
    finding: 'Emergency admissions stay longest (about 6.5 days), urgent ones about 4.5, elective ones about 2.5.',
    sql: 'SELECT admission_type, round(avg(discharge_date - admit_date), 2) AS mean_stay_days, count(*) AS admissions FROM admissions GROUP BY 1 ORDER BY 2 DESC',
    holdsSql:
      "SELECT avg(discharge_date - admit_date) FILTER (WHERE admission_type = 'emergency') > avg(discharge_date - admit_date) FILTER (WHERE admission_type = 'urgent') + 1 " +
      "AND avg(discharge_date - admit_date) FILTER (WHERE admission_type = 'urgent') > avg(discharge_date - admit_date) FILTER (WHERE admission_type = 'elective') + 1 FROM admissions",
  },
  {
    id: 'semaglutide-lowers-hba1c',
    finding: 'Every diabetic patient on semaglutide sees HbA1c fall from first to last draw; patients without it do not improve.',
    sql:
      "WITH t AS (SELECT patient_id, arg_max(value, collected_at) - arg_min(value, collected_at) AS change FROM lab_results WHERE test_name = 'HbA1c' GROUP BY 1) " +
      "SELECT patient_id IN (SELECT patient_id FROM medications WHERE drug_name = 'semaglutide') AS on_semaglutide, round(avg(change), 2) AS mean_change, count(*) AS patients FROM t GROUP BY 1",
    holdsSql:
      "WITH t AS (SELECT patient_id, arg_max(value, collected_at) - arg_min(value, collected_at) AS change FROM lab_results WHERE test_name = 'HbA1c' GROUP BY 1) " +
      "SELECT bool_and(change < 0) FILTER (WHERE on_drug) AND avg(change) FILTER (WHERE NOT on_drug) > -0.2 FROM (SELECT change, patient_id IN (SELECT patient_id FROM medications WHERE drug_name = 'semaglutide') AS on_drug FROM t)",
  },
  {
    id: 'copd-smokers',
    finding: 'About 80 % of COPD patients smoke, against about 20 % of the others.',
    sql:
      "SELECT patient_id IN (SELECT patient_id FROM diagnoses WHERE description LIKE 'COPD%') AS copd, round(avg(smoker::INTEGER), 3) AS smoker_share, count(*) AS patients FROM patients GROUP BY 1",
    holdsSql:
      "SELECT avg(smoker::INTEGER) FILTER (WHERE copd) > 0.6 AND avg(smoker::INTEGER) FILTER (WHERE NOT copd) < 0.35 FROM (SELECT smoker, patient_id IN (SELECT patient_id FROM diagnoses WHERE description LIKE 'COPD%') AS copd FROM patients)",
  },
  {
    id: 'heart-failure-skilled-nursing',
    finding: 'Cardiology (heart-failure) admissions are discharged to skilled nursing about three times as often as others.',
    sql: "SELECT ward = 'cardiology' AS cardiology, round(avg((discharge_disposition = 'skilled nursing')::INTEGER), 3) AS skilled_nursing_share FROM admissions GROUP BY 1",
    holdsSql:
      "SELECT avg((discharge_disposition = 'skilled nursing')::INTEGER) FILTER (WHERE ward = 'cardiology') > 2 * avg((discharge_disposition = 'skilled nursing')::INTEGER) FILTER (WHERE ward <> 'cardiology') FROM admissions",
  },
  {
    id: 'no-amoxicillin-for-penicillin-allergy',
    finding: 'No patient allergic to penicillin is ever prescribed amoxicillin (some other patients are).',
    sql: "SELECT count(*) AS violations FROM medications m JOIN allergies a USING (patient_id) WHERE a.allergen = 'penicillin' AND m.drug_name = 'amoxicillin'",
    holdsSql:
      "SELECT (SELECT count(*) FROM medications m JOIN allergies a USING (patient_id) WHERE a.allergen = 'penicillin' AND m.drug_name = 'amoxicillin') = 0 " +
      "AND (SELECT count(*) FROM medications WHERE drug_name = 'amoxicillin') > 0",
  },
];
