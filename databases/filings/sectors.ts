/** A sector's shape: its segments, typical margin, and the risks its companies are likely to disclose. */
export interface Sector {
  name: string;
  segments: string[];
  margin: readonly [number, number];
  rdShare: number;
  /** Risk categories with disclosure probability per year. */
  risks: Array<readonly [string, number]>;
}

const COMMON_RISKS: Array<readonly [string, number]> = [
  ['competition', 0.6],
  ['litigation', 0.3],
  ['currency', 0.35],
  ['interest rates', 0.3],
  ['regulation', 0.4],
  ['supply chain', 0.3],
];

export const SECTORS: Sector[] = [
  { name: 'Technology', segments: ['Cloud Services', 'Devices', 'Software Licenses', 'Advertising'], margin: [0.08, 0.25], rdShare: 0.15, risks: [['cybersecurity', 1], ...COMMON_RISKS] },
  { name: 'Healthcare', segments: ['Pharmaceuticals', 'Medical Devices', 'Diagnostics', 'Consumer Health'], margin: [0.05, 0.2], rdShare: 0.12, risks: [['regulation', 0.95], ['litigation', 0.6], ['cybersecurity', 0.3], ['competition', 0.5], ['currency', 0.3]] },
  { name: 'Energy', segments: ['Upstream', 'Refining', 'Renewables', 'Retail Fuel'], margin: [0.03, 0.15], rdShare: 0.01, risks: [['climate', 1], ['regulation', 0.7], ['interest rates', 0.3], ['supply chain', 0.4], ['litigation', 0.3]] },
  { name: 'Industrials', segments: ['Aerospace', 'Machinery', 'Building Products', 'Services'], margin: [0.04, 0.12], rdShare: 0.04, risks: [['supply chain', 0.9], ...COMMON_RISKS.filter(([name]) => name !== 'supply chain'), ['climate', 0.25]] },
  { name: 'Consumer', segments: ['Apparel', 'Beverages', 'Home Goods', 'E-commerce'], margin: [0.03, 0.12], rdShare: 0.01, risks: [['supply chain', 0.7], ['competition', 0.8], ['currency', 0.5], ['cybersecurity', 0.3]] },
  { name: 'Financials', segments: ['Retail Banking', 'Wealth Management', 'Insurance', 'Payments'], margin: [0.1, 0.3], rdShare: 0.02, risks: [['interest rates', 1], ['regulation', 0.8], ['cybersecurity', 0.6], ['litigation', 0.4]] },
];

export const RISK_TEXT: Record<string, string> = {
  cybersecurity: 'A breach of our information systems could disrupt operations and expose customer data.',
  'supply chain': 'We depend on a limited number of suppliers; disruptions could delay deliveries and raise costs.',
  regulation: 'Changes in laws and regulations could increase compliance costs or restrict our products.',
  climate: 'Climate-related regulation and physical risks could impair our assets and raise operating costs.',
  currency: 'Fluctuations in foreign exchange rates affect our reported revenue and margins.',
  litigation: 'We are party to legal proceedings whose outcomes could require significant payments.',
  competition: 'Intense competition could reduce our market share and pricing power.',
  'interest rates': 'Rising interest rates increase our financing costs and may reduce demand.',
};

export const NAME_PARTS = {
  first: ['Apex', 'Blue', 'Cedar', 'Delta', 'Ever', 'Fort', 'Granite', 'Harbor', 'Iron', 'Juniper', 'Keystone', 'Lumen', 'Meridian', 'North', 'Orion', 'Pioneer', 'Quartz', 'River', 'Summit', 'Terra'],
  second: ['Holdings', 'Group', 'Systems', 'Industries', 'Partners', 'Labs', 'Corp', 'Works'],
} as const;

export const COUNTRIES = ['United States', 'Germany', 'Japan', 'United Kingdom', 'Canada', 'France', 'Netherlands'] as const;
