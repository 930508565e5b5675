import { FIRST_YEAR, LAST_YEAR } from '../../databases/filings/build-filings.ts';
import { RISK_TEXT, SECTORS } from '../../databases/filings/sectors.ts';
import { listText, type FactTemplate, type ScenarioSpec } from './scenario-spec.ts';

const SEGMENTS = [...new Set(SECTORS.flatMap((sector) => sector.segments))];

function facts(id: string): FactTemplate[] {
  const company = `company_id = '${id}'`;
  const margin = (year: number) => `(SELECT net_income_musd / revenue_musd FROM statements WHERE ${company} AND fiscal_year = ${year})`;
  return [
    {
      id: 'sector',
      question: `In which sector does company ${id} operate?`,
      answer_type: 'category',
      sql: `SELECT sector FROM companies WHERE ${company}`,
      anchors: [['sector', 'industry']],
      choices: SECTORS.map((sector) => sector.name),
      statement: (answer) => `The company is in the ${answer} sector.`,
    },
    {
      id: 'revenue-latest',
      question: `What was company ${id}'s revenue in fiscal ${LAST_YEAR}, in USD millions?`,
      answer_type: 'number',
      tolerance: 0.5,
      unit: 'USD million',
      sql: `SELECT revenue_musd FROM statements WHERE ${company} AND fiscal_year = ${LAST_YEAR}`,
      anchors: [['revenue', 'sales'], [String(LAST_YEAR)]],
      statement: (answer) => `Revenue in ${LAST_YEAR} was ${answer} USD million.`,
    },
    {
      id: 'revenue-cagr',
      question: `What was company ${id}'s compound annual revenue growth from ${FIRST_YEAR} to ${LAST_YEAR}, in percent?`,
      answer_type: 'number',
      tolerance: 0.3,
      unit: '%',
      sql:
        `SELECT round(100 * (pow(max(revenue_musd) FILTER (WHERE fiscal_year = ${LAST_YEAR}) / max(revenue_musd) FILTER (WHERE fiscal_year = ${FIRST_YEAR}), ` +
        `1.0 / ${LAST_YEAR - FIRST_YEAR}) - 1), 1) FROM statements WHERE ${company}`,
      anchors: [['cagr', 'compound annual', 'annual growth', 'annual revenue growth', 'grew', 'growth']],
      statement: (answer) => `Revenue CAGR ${FIRST_YEAR}–${LAST_YEAR} was ${answer}% per year.`,
    },
    {
      id: 'net-margin-latest',
      question: `What was company ${id}'s net margin (net income / revenue) in ${LAST_YEAR}, in percent?`,
      answer_type: 'number',
      tolerance: 0.2,
      unit: '%',
      sql: `SELECT round(100 * ${margin(LAST_YEAR)}, 1)`,
      anchors: [['net margin', 'profit margin', 'net income margin', 'net profit margin'], [String(LAST_YEAR), 'latest']],
      statement: (answer) => `Net margin in ${LAST_YEAR} was ${answer}%.`,
    },
    {
      id: 'margin-direction',
      question: `Did company ${id}'s net margin improve, worsen or stay the same from ${FIRST_YEAR} to ${LAST_YEAR} (same: within 1 percentage point)?`,
      answer_type: 'direction',
      higher_is_better: true,
      sql:
        `SELECT CASE WHEN abs(${margin(LAST_YEAR)} - ${margin(FIRST_YEAR)}) <= 0.01 THEN 'same' ` +
        `WHEN ${margin(LAST_YEAR)} > ${margin(FIRST_YEAR)} THEN 'improved' ELSE 'worsened' END`,
      anchors: [['margin', 'profitability']],
      statement: (answer) => `Profitability ${answer === 'same' ? 'stayed about the same' : answer} from ${FIRST_YEAR} to ${LAST_YEAR}.`,
    },
    {
      id: 'largest-segment',
      question: `Which business segment brought company ${id} the most revenue in ${LAST_YEAR}?`,
      answer_type: 'category',
      sql: `SELECT segment_name FROM segments WHERE ${company} AND fiscal_year = ${LAST_YEAR} ORDER BY revenue_musd DESC LIMIT 1`,
      anchors: [['segment', 'business line', 'division'], ['largest', 'biggest', 'most revenue', 'top', 'leading', 'main']],
      choices: SEGMENTS,
      statement: (answer) => `The largest segment in ${LAST_YEAR} was ${answer}.`,
    },
    {
      id: 'risks-latest',
      question: `Which risk-factor categories did company ${id} disclose for ${LAST_YEAR}?`,
      answer_type: 'set',
      sql: `SELECT DISTINCT category FROM risk_factors WHERE ${company} AND fiscal_year = ${LAST_YEAR} ORDER BY category`,
      ambiguousSql: `SELECT count(*) = 0 FROM risk_factors WHERE ${company} AND fiscal_year = ${LAST_YEAR}`,
      anchors: [['risk'], [String(LAST_YEAR), 'latest', 'most recent']],
      choices: Object.keys(RISK_TEXT),
      statement: (answer) => `Risk factors disclosed for ${LAST_YEAR}: ${listText(answer)}.`,
    },
    {
      id: 'loss-years',
      question: `In how many fiscal years from ${FIRST_YEAR} to ${LAST_YEAR} did company ${id} report a net loss?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'years',
      sql: `SELECT count(*) FROM statements WHERE ${company} AND net_income_musd < 0`,
      // Saying "no loss" has no number to check: only companies with losses get the question.
      ambiguousSql: `SELECT count(*) = 0 FROM statements WHERE ${company} AND net_income_musd < 0`,
      anchors: [['loss', 'unprofitable']],
      statement: (answer) => `It reported a net loss in ${answer} fiscal years.`,
    },
    {
      id: 'debt-to-assets',
      question: `What was company ${id}'s debt-to-assets ratio at the end of ${LAST_YEAR}, in percent?`,
      answer_type: 'number',
      tolerance: 0.2,
      unit: '%',
      sql: `SELECT round(100 * total_debt_musd / total_assets_musd, 1) FROM statements WHERE ${company} AND fiscal_year = ${LAST_YEAR}`,
      anchors: [['debt'], ['assets', 'leverage']],
      statement: (answer) => `Debt-to-assets at the end of ${LAST_YEAR} was ${answer}%.`,
    },
  ];
}

/** The filings scenario: "Analyze company C-042". */
export const filingsScenario: ScenarioSpec = {
  database: 'filings',
  taskPrefix: 'ddr-filings',
  domain: 'company filings',
  entityKind: 'company',
  entitiesSql: `SELECT company_id FROM companies ORDER BY company_id`,
  query: (id) => `Analyze company ${id}. Explore the database, find what characterises this company, and end with FINISH: and your findings.`,
  facts,
};
