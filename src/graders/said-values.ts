import { canonicalValues } from './value-forms.ts';

const NUMERIC = /^-?\d+(?:\.\d+)?$/u;
/** A number as written in prose: an optional sign and currency sign, thousands separators, decimals. */
const NUMBER_IN_TEXT = /(?<![\w.])-?[$£€]?\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\d])/gu;

/** The numbers a text states ("$1,234.50", "£12.40", "12.4", "twelve" → 12 by value-forms). */
function numbersIn(text: string): number[] {
  return [...canonicalValues(text.toLowerCase()).matchAll(NUMBER_IN_TEXT)].map((match) => Number(`${match[0].trimStart().startsWith('-') ? '-' : ''}${match[1]!.replaceAll(',', '')}.${match[2] ?? '0'}`));
}

/**
 * Whether a text states a required value. A numeric value is said when a number in the text is within `tolerance`
 * of it (default half a cent: "12.40", "$12.40", "£12.40", "12.4" all say 12.40; "112.40" and "12.41" do not). Any
 * other value (an id, a date, a plan name) is said when it appears as a whole word, case aside, after dates and number
 * words are written in one form (value-forms: "July 8, 2026" says 2026-07-08).
 */
export function saysValue(text: string, value: string, tolerance?: number): boolean {
  if (NUMERIC.test(value.trim())) {
    const wanted = Number(value);
    return numbersIn(text).some((number) => Math.abs(number - wanted) <= (tolerance ?? 0.005));
  }
  const escaped = value.trim().toLowerCase().replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'u').test(canonicalValues(text.toLowerCase()));
}
