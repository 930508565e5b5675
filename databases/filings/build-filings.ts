import { writeTables, type CellValue } from '../tables/index.ts';
import { SeededRandom } from '../seeded-random.ts';
import { FILINGS_TABLES } from './columns.ts';
import { COUNTRIES, NAME_PARTS, RISK_TEXT, SECTORS } from './sectors.ts';

export interface FilingsOptions {
  seed?: number;
  /** Number of companies (default 80, at most 160). */
  companies?: number;
}

export const FIRST_YEAR = 2019;
export const LAST_YEAR = 2024;

function money(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Rows of every filings table, generated from one seed; the planted facts are in README.md. */
export function generateFilingsRows(options: FilingsOptions = {}): Record<string, CellValue[][]> {
  const random = new SeededRandom(options.seed ?? 11);
  const count = Math.min(options.companies ?? 80, NAME_PARTS.first.length * NAME_PARTS.second.length);
  const rows: Record<string, CellValue[][]> = Object.fromEntries(FILINGS_TABLES.map((table) => [table.name, []]));
  const names = random.sample(
    NAME_PARTS.first.flatMap((first) => NAME_PARTS.second.map((second) => `${first} ${second}`)),
    count,
  );
  for (let index = 1; index <= count; index += 1) {
    const companyId = `C-${String(index).padStart(3, '0')}`;
    const name = names[index - 1]!;
    const sector = random.pick(SECTORS);
    const ticker = `${name.split(' ')[0]!.slice(0, 3).toUpperCase()}${name.split(' ')[1]!.slice(0, 1)}`;
    rows.companies!.push([companyId, name, ticker, sector.name, random.pick(COUNTRIES), random.int(1902, 2012)]);

    // Planted: revenue growth follows R&D intensity (research-heavy companies grow faster).
    const rdIntensity = sector.rdShare * (0.5 + random.next());
    const growth = random.normal(0.02 + rdIntensity * 0.6, 0.04);
    const marginPath = random.weighted([['improved', 2], ['worsened', 2], ['same', 1]] as const);
    // Planted: about one company in six runs at a loss in some years (a low, volatile margin).
    const distressed = random.next() < 0.17;
    const marginStart = distressed ? random.normal(-0.01, 0.03) : sector.margin[0] + random.next() * (sector.margin[1] - sector.margin[0]);
    const marginChange = marginPath === 'same' ? 0 : (marginPath === 'improved' ? 1 : -1) * (0.03 + random.next() * 0.05);
    let revenue = 200 + random.next() * 9_800;
    const assetTurnover = 0.5 + random.next();
    const leverage = 0.1 + random.next() * 0.5;
    const leverageDrift = random.normal(0, 0.04);
    const segmentNames = random.sample(sector.segments, random.int(2, 4));
    const segmentWeights = segmentNames.map(() => 0.5 + random.next());
    // Planted: energy companies shift revenue towards Renewables every year.
    const renewablesIndex = segmentNames.indexOf('Renewables');
    let employees = Math.round(revenue * (2 + random.next() * 4));
    for (let year = FIRST_YEAR; year <= LAST_YEAR; year += 1) {
      const step = year - FIRST_YEAR;
      if (step > 0) revenue *= 1 + growth + random.normal(0, 0.02);
      const margin = marginStart + (marginChange * step) / (LAST_YEAR - FIRST_YEAR) + random.normal(0, distressed ? 0.02 : 0.004);
      const netIncome = revenue * margin;
      const operatingIncome = netIncome * 1.3 + revenue * 0.01;
      const assets = revenue / assetTurnover;
      const debt = assets * Math.max(0.02, leverage + leverageDrift * step);
      employees = Math.max(50, Math.round(employees * (1 + growth * 0.6 + random.normal(0, 0.01))));
      rows.statements!.push([companyId, year, money(revenue), money(operatingIncome), money(netIncome), money(assets), money(debt), money(revenue * rdIntensity), employees]);

      if (renewablesIndex >= 0) segmentWeights[renewablesIndex]! *= 1.35;
      const total = segmentWeights.reduce((sum, weight) => sum + weight, 0);
      segmentNames.forEach((segment, segmentIndex) => {
        rows.segments!.push([companyId, year, segment, money((revenue * segmentWeights[segmentIndex]!) / total)]);
        segmentWeights[segmentIndex]! *= 1 + random.normal(0, 0.05);
      });

      // Planted: Technology always discloses cybersecurity, Energy always discloses climate.
      for (const [category, probability] of sector.risks) {
        if (random.next() < probability) rows.risk_factors!.push([companyId, year, category, `${name}: ${RISK_TEXT[category]}`]);
      }
    }
  }
  return rows;
}

/** Builds the filings scenario database at `path` (replacing it). */
export async function buildFilings(path: string, options: FilingsOptions = {}): Promise<void> {
  await writeTables(path, FILINGS_TABLES, generateFilingsRows(options));
}
