export { buildFilings, generateFilingsRows, FIRST_YEAR, LAST_YEAR, type FilingsOptions } from './build-filings.ts';
export { FILINGS_TABLES } from './columns.ts';
export { SECTORS, RISK_TEXT, type Sector } from './sectors.ts';
