import type { TableDoc } from '../tables/index.ts';

/** The filings scenario's tables and field documentation (served by `get_field_description`). */
export const FILINGS_TABLES: TableDoc[] = [
  {
    name: 'companies',
    description: 'One row per (fictional) listed company.',
    columns: [
      { name: 'company_id', type: 'VARCHAR PRIMARY KEY', description: 'Company identifier, "C-001" …' },
      { name: 'name', type: 'VARCHAR', description: 'Company name (fictional).' },
      { name: 'ticker', type: 'VARCHAR', description: 'Exchange ticker symbol.' },
      { name: 'sector', type: 'VARCHAR', description: 'Sector: Technology, Healthcare, Energy, Industrials, Consumer or Financials.' },
      { name: 'country', type: 'VARCHAR', description: 'Country of incorporation.' },
      { name: 'founded_year', type: 'INTEGER', description: 'Year the company was founded.' },
    ],
  },
  {
    name: 'statements',
    description: 'Yearly financial statements (fiscal years 2019–2024); money in millions of US dollars.',
    columns: [
      { name: 'company_id', type: 'VARCHAR', description: 'The company (companies.company_id).' },
      { name: 'fiscal_year', type: 'INTEGER', description: 'Fiscal year the statement covers.' },
      { name: 'revenue_musd', type: 'DOUBLE', description: 'Total revenue, USD millions.' },
      { name: 'operating_income_musd', type: 'DOUBLE', description: 'Operating income, USD millions (negative = operating loss).' },
      { name: 'net_income_musd', type: 'DOUBLE', description: 'Net income, USD millions (negative = net loss). Net margin = net_income_musd / revenue_musd.' },
      { name: 'total_assets_musd', type: 'DOUBLE', description: 'Total assets at year end, USD millions.' },
      { name: 'total_debt_musd', type: 'DOUBLE', description: 'Total debt at year end, USD millions.' },
      { name: 'rd_expense_musd', type: 'DOUBLE', description: 'Research and development expense, USD millions.' },
      { name: 'employees', type: 'INTEGER', description: 'Head count at year end.' },
    ],
  },
  {
    name: 'segments',
    description: 'Revenue by reportable business segment and year; segments of a year sum to the statement revenue.',
    columns: [
      { name: 'company_id', type: 'VARCHAR', description: 'The company (companies.company_id).' },
      { name: 'fiscal_year', type: 'INTEGER', description: 'Fiscal year.' },
      { name: 'segment_name', type: 'VARCHAR', description: 'Name of the business segment.' },
      { name: 'revenue_musd', type: 'DOUBLE', description: 'Segment revenue, USD millions.' },
    ],
  },
  {
    name: 'risk_factors',
    description: 'Risk factors disclosed in the yearly report: one row per disclosed risk, with its text.',
    columns: [
      { name: 'company_id', type: 'VARCHAR', description: 'The company (companies.company_id).' },
      { name: 'fiscal_year', type: 'INTEGER', description: 'Fiscal year of the report.' },
      { name: 'category', type: 'VARCHAR', description: 'Risk category: cybersecurity, supply chain, regulation, climate, currency, litigation, competition, interest rates.' },
      { name: 'text', type: 'VARCHAR', description: 'The risk factor as worded in the report.' },
    ],
  },
];
