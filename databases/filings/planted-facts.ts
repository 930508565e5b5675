import type { PlantedFact } from '../clinical/planted-facts.ts';

/** The filings database's planted facts (README.md); a test checks every one holds on the default build. */
export const FILINGS_FACTS: PlantedFact[] = [
  {
    id: 'sector-signature-risks',
    finding: 'Every Technology company discloses cybersecurity risk and every Energy company climate risk, every year.',
    sql:
      "SELECT c.sector, r.category, count(DISTINCT r.company_id || r.fiscal_year) AS reports FROM risk_factors r JOIN companies c USING (company_id) WHERE (c.sector, r.category) IN (('Technology', 'cybersecurity'), ('Energy', 'climate')) GROUP BY ALL",
    holdsSql:
      "SELECT bool_and(has) FROM (SELECT s.company_id, s.fiscal_year, EXISTS (SELECT 1 FROM risk_factors r WHERE r.company_id = s.company_id AND r.fiscal_year = s.fiscal_year " +
      "AND r.category = CASE c.sector WHEN 'Technology' THEN 'cybersecurity' ELSE 'climate' END) AS has FROM statements s JOIN companies c USING (company_id) WHERE c.sector IN ('Technology', 'Energy'))",
  },
  {
    id: 'rd-drives-growth',
    finding: 'Research-heavy companies grow faster: revenue CAGR rises with R&D intensity (R&D / revenue).',
    sql:
      'WITH g AS (SELECT company_id, avg(rd_expense_musd / revenue_musd) AS rd_intensity, pow(max(revenue_musd) FILTER (WHERE fiscal_year = 2024) / max(revenue_musd) FILTER (WHERE fiscal_year = 2019), 0.2) - 1 AS cagr FROM statements GROUP BY 1) ' +
      'SELECT round(corr(rd_intensity, cagr), 3) AS correlation, count(*) AS companies FROM g',
    holdsSql:
      'WITH g AS (SELECT company_id, avg(rd_expense_musd / revenue_musd) AS rd_intensity, pow(max(revenue_musd) FILTER (WHERE fiscal_year = 2024) / max(revenue_musd) FILTER (WHERE fiscal_year = 2019), 0.2) - 1 AS cagr FROM statements GROUP BY 1) ' +
      'SELECT corr(rd_intensity, cagr) > 0.4 FROM g',
  },
  {
    id: 'renewables-share-rises',
    finding: 'Energy companies with a Renewables segment raise its share of revenue every year.',
    sql:
      "SELECT fiscal_year, round(avg(share), 3) AS mean_renewables_share FROM (SELECT s.company_id, s.fiscal_year, s.revenue_musd / t.revenue_musd AS share FROM segments s JOIN statements t USING (company_id, fiscal_year) WHERE s.segment_name = 'Renewables') GROUP BY 1 ORDER BY 1",
    holdsSql:
      "SELECT bool_and(share > previous) FROM (SELECT share, lag(share) OVER (PARTITION BY company_id ORDER BY fiscal_year) AS previous FROM (SELECT s.company_id, s.fiscal_year, s.revenue_musd / t.revenue_musd AS share FROM segments s JOIN statements t USING (company_id, fiscal_year) WHERE s.segment_name = 'Renewables')) WHERE previous IS NOT NULL",
  },
  {
    id: 'loss-makers',
    finding: 'About one company in six reports a net loss in at least one year.',
    sql: 'SELECT count(DISTINCT company_id) AS companies_with_a_loss, (SELECT count(*) FROM companies) AS companies FROM statements WHERE net_income_musd < 0',
    holdsSql: 'SELECT count(DISTINCT company_id) BETWEEN 5 AND 30 FROM statements WHERE net_income_musd < 0',
  },
  {
    id: 'segments-sum-to-revenue',
    finding: 'Segment revenues of a year add up to the statement revenue (within rounding).',
    sql: 'SELECT max(abs(t.revenue_musd - s.total)) AS worst_gap FROM statements t JOIN (SELECT company_id, fiscal_year, sum(revenue_musd) AS total FROM segments GROUP BY ALL) s USING (company_id, fiscal_year)',
    holdsSql: 'SELECT max(abs(t.revenue_musd - s.total)) < 0.5 FROM statements t JOIN (SELECT company_id, fiscal_year, sum(revenue_musd) AS total FROM segments GROUP BY ALL) s USING (company_id, fiscal_year)',
  },
];
