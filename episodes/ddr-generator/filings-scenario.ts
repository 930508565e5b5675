import { FIRST_YEAR, LAST_YEAR } from '../../databases/filings/build-filings.ts';
import { RISK_TEXT, SECTORS } from '../../databases/filings/sectors.ts';
import { dialectOf, type SqlDialect } from '../../mcp-servers/sql/backends/dialect.ts';
import { listText, ordinal, type FactTemplate, type ScenarioSpec } from './scenario-spec.ts';

const SEGMENTS = [...new Set(SECTORS.flatMap((sector) => sector.segments))];

/** A company's facts in an engine's dialect: five lookups and aggregates, five or six insights (growth, direction, rank and anomaly in its sector, segment relationships). */
function facts(dialect: SqlDialect, id: string, context: Record<string, string>): FactTemplate[] {
  const { round, derived } = dialect;
  const company = `company_id = '${id}'`;
  const margin = (year: number) => `(SELECT net_income_musd / revenue_musd FROM statements WHERE ${company} AND fiscal_year = ${year})`;
  const peers = Number(context.peers);
  const sectorPeers = `SELECT s.company_id, s.revenue_musd, s.net_income_musd / s.revenue_musd AS margin FROM statements s JOIN companies c USING (company_id) WHERE s.fiscal_year = ${LAST_YEAR} AND c.sector = (SELECT sector FROM companies WHERE ${company})`;
  const renewablesShare = (year: number) =>
    `(SELECT 100 * g.revenue_musd / s.revenue_musd FROM segments g JOIN statements s USING (company_id, fiscal_year) WHERE g.${company} AND g.fiscal_year = ${year} AND g.segment_name = 'Renewables')`;
  return [
    {
      id: 'sector',
      kind: 'lookup',
      question: `In which sector does company ${id} operate?`,
      answer_type: 'category',
      sql: `SELECT sector FROM companies WHERE ${company}`,
      choices: SECTORS.map((sector) => sector.name),
      statement: (answer) => `The company is in the ${answer} sector.`,
    },
    {
      id: 'net-margin-latest',
      kind: 'aggregate',
      question: `What was company ${id}'s net margin (net income / revenue) in ${LAST_YEAR}, in percent?`,
      answer_type: 'number',
      tolerance: 0.2,
      unit: '%',
      sql: `SELECT ${round(`100 * ${margin(LAST_YEAR)}`, 1)}`,
      statement: (answer) => `Net margin in ${LAST_YEAR} was ${answer}%.`,
    },
    {
      id: 'largest-segment',
      kind: 'aggregate',
      question: `Which business segment brought company ${id} the most revenue in ${LAST_YEAR}?`,
      answer_type: 'category',
      sql: `SELECT segment_name FROM segments WHERE ${company} AND fiscal_year = ${LAST_YEAR} ORDER BY revenue_musd DESC LIMIT 1`,
      choices: SEGMENTS,
      statement: (answer) => `The largest segment in ${LAST_YEAR} was ${answer}.`,
    },
    {
      id: 'risks-latest',
      kind: 'lookup',
      question: `Which risk-factor categories did company ${id} disclose for ${LAST_YEAR}?`,
      answer_type: 'set',
      sql: `SELECT DISTINCT category FROM risk_factors WHERE ${company} AND fiscal_year = ${LAST_YEAR} ORDER BY category`,
      ambiguousSql: `SELECT count(*) = 0 FROM risk_factors WHERE ${company} AND fiscal_year = ${LAST_YEAR}`,
      choices: Object.keys(RISK_TEXT),
      statement: (answer) => `Risk factors disclosed for ${LAST_YEAR}: ${listText(answer)}.`,
    },
    {
      id: 'loss-years',
      kind: 'aggregate',
      question: `In how many fiscal years from ${FIRST_YEAR} to ${LAST_YEAR} did company ${id} report a net loss?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'years',
      sql: `SELECT count(*) FROM statements WHERE ${company} AND net_income_musd < 0`,
      // Saying "no loss" has no number to check: only companies with losses get the question.
      ambiguousSql: `SELECT count(*) = 0 FROM statements WHERE ${company} AND net_income_musd < 0`,
      statement: (answer) => `It reported a net loss in ${answer} fiscal years.`,
    },
    {
      id: 'revenue-cagr',
      kind: 'trend',
      question: `What was company ${id}'s compound annual revenue growth from ${FIRST_YEAR} to ${LAST_YEAR}, in percent?`,
      answer_type: 'number',
      tolerance: 0.3,
      unit: '%',
      sql:
        `SELECT ${round(`100 * (pow(max(revenue_musd) FILTER (WHERE fiscal_year = ${LAST_YEAR}) / max(revenue_musd) FILTER (WHERE fiscal_year = ${FIRST_YEAR}), 1.0 / ${LAST_YEAR - FIRST_YEAR}) - 1)`, 1)} ` +
        `FROM statements WHERE ${company}`,
      statement: (answer) => `Revenue CAGR ${FIRST_YEAR}–${LAST_YEAR} was ${answer}% per year.`,
    },
    {
      id: 'margin-direction',
      kind: 'trend',
      question: `Did company ${id}'s net margin improve, worsen or stay the same from ${FIRST_YEAR} to ${LAST_YEAR} (same: within 1 percentage point)?`,
      answer_type: 'direction',
      higher_is_better: true,
      sql:
        `SELECT CASE WHEN abs(${margin(LAST_YEAR)} - ${margin(FIRST_YEAR)}) <= 0.01 THEN 'same' ` +
        `WHEN ${margin(LAST_YEAR)} > ${margin(FIRST_YEAR)} THEN 'improved' ELSE 'worsened' END`,
      statement: (answer) => `Profitability ${answer === 'same' ? 'stayed about the same' : answer} from ${FIRST_YEAR} to ${LAST_YEAR}.`,
    },
    {
      id: 'revenue-rank-in-sector',
      kind: 'rank',
      question: `Among the ${peers} companies of its sector, where does company ${id} rank by ${LAST_YEAR} revenue (1 = largest)?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'rank',
      peers,
      rank_by: 'highest',
      sql: `SELECT r FROM ${derived(`SELECT company_id, rank() OVER (ORDER BY revenue_musd DESC) AS r FROM ${derived(sectorPeers, 'p')}`, 'ranked')} WHERE ${company}`,
      statement: (answer) => `By ${LAST_YEAR} revenue it ranks ${ordinal(answer)} largest of the ${peers} companies in its sector.`,
    },
    {
      id: 'margin-z-score-in-sector',
      kind: 'anomaly',
      question: `How many standard deviations is company ${id}'s ${LAST_YEAR} net margin from the mean net margin of its sector's companies (positive = above)?`,
      answer_type: 'number',
      tolerance: 0.1,
      unit: 'σ',
      sql: `WITH p AS (${sectorPeers}) SELECT ${round(`(margin - (SELECT avg(margin) FROM p)) / ${dialect.stddevSampOver('margin', 'p')}`, 2)} FROM p WHERE ${company}`,
      ambiguousSql: `SELECT count(*) < 3 FROM ${derived(sectorPeers, 'p')}`,
      statement: (answer) =>
        `Its ${LAST_YEAR} net margin is ${Math.abs(Number(answer))} standard deviations ${Number(answer) < 0 ? 'below' : 'above'} the mean net margin of its sector.`,
    },
    {
      id: 'largest-segment-share',
      kind: 'relationship',
      question: `What share of company ${id}'s ${LAST_YEAR} revenue (statements) came from its largest business segment (segments), in percent?`,
      answer_type: 'number',
      tolerance: 0.5,
      unit: '%',
      sql:
        `SELECT ${round(`100 * max(g.revenue_musd) / ${dialect.anyValue('s.revenue_musd')}`, 1)} FROM segments g JOIN statements s USING (company_id, fiscal_year) ` +
        `WHERE g.${company} AND g.fiscal_year = ${LAST_YEAR}`,
      statement: (answer) => `The largest segment brought ${answer}% of ${LAST_YEAR} revenue.`,
    },
    {
      id: 'renewables-share-change',
      kind: 'relationship',
      question: `By how many percentage points did the Renewables segment's share of company ${id}'s revenue change from ${FIRST_YEAR} to ${LAST_YEAR}?`,
      answer_type: 'number',
      tolerance: 0.3,
      unit: 'pp',
      sql: `SELECT ${round(`${renewablesShare(LAST_YEAR)} - ${renewablesShare(FIRST_YEAR)}`, 1)}`,
      // Only companies with a Renewables segment (Energy companies, where the planted shift is) get the question.
      ambiguousSql: `SELECT ${renewablesShare(LAST_YEAR)} IS NULL OR ${renewablesShare(FIRST_YEAR)} IS NULL`,
      statement: (answer) =>
        `The Renewables segment's share of revenue ${Number(answer) < 0 ? 'fell' : 'rose'} by ${Math.abs(Number(answer))} percentage points from ${FIRST_YEAR} to ${LAST_YEAR}.`,
    },
  ];
}

/** The filings scenario: "Analyze company C-042". */
export const filingsScenarioFor = (dialect: SqlDialect): ScenarioSpec => ({
  database: 'filings',
  taskPrefix: 'ddr-filings',
  domain: 'company filings',
  entityKind: 'company',
  entitiesSql: `SELECT company_id FROM companies ORDER BY company_id`,
  contextSql: (id) => `SELECT count(*) AS peers FROM companies WHERE sector = (SELECT sector FROM companies WHERE company_id = '${id}')`,
  query: (id) => `Analyze company ${id}. Explore the database, find what characterises this company, and end with FINISH: and your findings.`,
  facts: (id, context) => facts(dialect, id, context),
});

/** The filings scenario as the committed suite has it (DuckDB). */
export const filingsScenario = filingsScenarioFor(dialectOf('duckdb'));
