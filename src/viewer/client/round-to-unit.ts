/**
 * How many decimals a column's values carry, by what the column measures (its name, as the reports and the episode
 * table name them): milliseconds and tokens are whole; US dollars to the micro-dollar (a cheap episode costs
 * $0.0003, and a cent would show it as 0); rates and shares (SR, PSR, accuracy, pass^k, coverage, …) to 4 decimals
 * (0.01 percentage point); any other fraction (a mean of counts, an entropy) to 4 decimals too.
 */
export function decimalsFor(column: string): number {
  const name = column.toLowerCase();
  if (/(^|_)ms$|_ms_|tokens/.test(name)) return 0;
  if (/(^|_)usd$|^cost/.test(name)) return 6;
  return 4;
}

/** A value as written for its column: a number rounded to the column's unit (no `9449.1578` ms); anything else as is. */
export function roundToUnit(column: string, value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value) || Number.isInteger(value)) return value;
  const factor = 10 ** decimalsFor(column);
  return Math.round(value * factor) / factor;
}
