/**
 * Rewrites the forms people write values in into the one form the mention readers parse: numbers in words as
 * digits ("two hundred forty" → "240"), dates in the common formats as ISO dates ("March 4, 2025", "4 Mar 2025",
 * "2025/03/04", "14/03/2025", "14.03.2025" → "2025-03-04"). A slashed or dotted date whose day and month can both be
 * either ("03/04/2025") names no date exactly: it becomes "an ambiguous date" and credits none. Input and output are normalised (lower-case)
 * clauses.
 */
const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALE: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9 };
const WORD = `(?:${[...Object.keys(SMALL), ...Object.keys(SCALE)].join('|')})`;
const NUMBER_WORDS = new RegExp(`(?<![\\p{L}\\p{N}-])${WORD}(?:(?:\\s+and\\s+|[\\s-]+)${WORD})*(?![\\p{L}\\p{N}])`, 'gu');

/** The value of a run of number words, or null when it is not one number ("one" alone is a pronoun as often). */
function wordsValue(run: string): number | null {
  const words = run.split(/[\s-]+/).filter((word) => word !== 'and');
  if (words.length === 1 && (words[0] === 'one' || SCALE[words[0]!] !== undefined)) return null;
  let total = 0;
  let current = 0;
  for (const word of words) {
    if (SMALL[word] !== undefined) current += SMALL[word]!;
    else if (word === 'hundred') current = (current || 1) * 100;
    else {
      total += (current || 1) * SCALE[word]!;
      current = 0;
    }
  }
  return total + current;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAME = '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?';
const iso = (year: string, month: number, day: number) =>
  month >= 1 && month <= 12 && day >= 1 && day <= 31 ? `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}` : null;
const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3)) + 1;
const DATE_FORMS: Array<[RegExp, (match: string[]) => string | null]> = [
  [new RegExp(`\\b${MONTH_NAME}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'g'), ([, month, day, year]) => iso(year!, monthOf(month!), Number(day))],
  [new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_NAME},?\\s+(\\d{4})\\b`, 'g'), ([, day, month, year]) => iso(year!, monthOf(month!), Number(day))],
  [/\b(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b/g, ([, year, month, day]) => iso(year!, Number(month), Number(day))],
  [
    /\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b/g,
    ([, first, second, year]) => {
      const [a, b] = [Number(first), Number(second)];
      if (a === b) return iso(year!, a, b);
      if (a > 12) return iso(year!, b, a);
      if (b > 12) return iso(year!, a, b);
      return null;
    },
  ],
];

/** Words after a small number word that make it a fraction or a figure of speech ("two halves", "three quarters of"), not a value. */
const NOT_A_COUNT = /^\s+(halves|half|thirds?|quarters?|fifths?|tenths?|of|or)\b/;
const WEEKDAY_BEFORE_DATE = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+(?=\d{4}-\d{2}-\d{2}\b)/g;

export function canonicalValues(clause: string): string {
  let text = clause.replace(NUMBER_WORDS, (run, offset: number, whole: string) => {
    const value = wordsValue(run.trim());
    if (value === null || (value < 10 && !/\s|-/.test(run.trim()) && NOT_A_COUNT.test(whole.slice(offset + run.length)))) return run;
    return String(value);
  });
  // A date that is not one date ("03/04/2025": 3 April or 4 March) is no value either: its digits are not read.
  for (const [pattern, rewrite] of DATE_FORMS) text = text.replace(pattern, (...match) => rewrite(match.slice(0, -2) as string[]) ?? 'an ambiguous date');
  // The weekday of a date is part of it ("Tuesday, 4 March 2025"), not a weekday stated on its own.
  return text.replace(WEEKDAY_BEFORE_DATE, '');
}
