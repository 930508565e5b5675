/**
 * The filter criteria a prompt applies, normalised, for the redundancy check ("a step re-filters by a criterion
 * already applied upstream"). Recognised: quoted values, comparisons with a number ("below 3", "over 600"),
 * calendar periods ("March 2026", "2026-03", "Q1 2026", "last 30 days"), and the given vocabulary of domain
 * values (queue, channel, site names…) as whole words. Deliberately narrow: a false "redundant" costs a plan
 * points, so only explicit criteria count.
 */
export function filterCriteria(prompt: string, vocabulary: readonly string[] = []): Set<string> {
  const text = prompt.toLowerCase();
  const criteria = new Set<string>();
  for (const match of text.matchAll(/'([^']{2,60})'|"([^"]{2,60})"/g)) criteria.add(`value:${(match[1] ?? match[2] ?? '').trim()}`);
  for (const match of text.matchAll(COMPARISON)) criteria.add(`compare:${normaliseComparator(match[1] ?? '')} ${match[2]}`);
  // "before and after 2026-04-01" compares the two sides of a date: a pivot, not a filter a later step would re-apply.
  for (const match of text.replace(/\bbefore and after \S+/g, ' ').matchAll(PERIOD)) criteria.add(`period:${match[0].replace(/\s+/g, ' ')}`);
  for (const term of vocabulary) {
    const needle = term.toLowerCase();
    if (needle.length < 2 || !text.includes(needle)) continue;
    if (wholeWord(needle).test(text)) criteria.add(`value:${needle}`);
  }
  return criteria;
}

const COMPARISON =
  /\b(above|below|over|under|more than|less than|at least|at most|greater than|fewer than|longer than|shorter than|>=|<=|>|<)\s*(\d+(?:\.\d+)?%?)/g;
const PERIOD =
  /\b(?:(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{4}|\d{4}-\d{2}(?:-\d{2})?|q[1-4]\s+\d{4}|last\s+\d+\s+(?:days|weeks|months))\b/g;

const SYNONYMS: Record<string, string> = {
  above: '>', over: '>', 'more than': '>', 'greater than': '>', 'longer than': '>', '>': '>',
  below: '<', under: '<', 'less than': '<', 'fewer than': '<', 'shorter than': '<', '<': '<',
  'at least': '>=', '>=': '>=', 'at most': '<=', '<=': '<=',
};

function normaliseComparator(word: string): string {
  return SYNONYMS[word] ?? word;
}

const wordPatterns = new Map<string, RegExp>();

/** The whole-word pattern of a vocabulary term, compiled once. */
function wholeWord(needle: string): RegExp {
  let pattern = wordPatterns.get(needle);
  if (!pattern) {
    pattern = new RegExp(`(^|[^a-z0-9])${escapeRegExp(needle)}($|[^a-z0-9])`);
    if (wordPatterns.size > 10_000) wordPatterns.clear();
    wordPatterns.set(needle, pattern);
  }
  return pattern;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
