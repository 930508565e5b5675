import { stemmer } from 'stemmer';
import type { ChecklistItem } from '../schemas/checklist.ts';

/**
 * Common paraphrases of a subject, each group read as its first phrase: a sentence saying "AHT" or "call length"
 * is about handle time, "contacts" are calls, "hospitalisations" are admissions. Multi-word phrases are replaced
 * before words are stemmed. The groups are general analyst English, not tied to one task: a user's database adds
 * its own terms through its column documentation.
 */
const PARAPHRASES: ReadonlyArray<readonly string[]> = [
  ['handle time duration', 'average handle time', 'handle time', 'handling time', 'aht', 'call duration', 'call length', 'talk time', 'calls last', 'duration'],
  ['resolution', 'first-contact resolution', 'first contact resolution', 'fcr', 'resolved', 'resolves', 'resolve', 'solved', 'fixed on the first'],
  ['escalation', 'escalations', 'escalated', 'escalates', 'escalate', 'sent to a supervisor', 'supervisor'],
  ['csat satisfaction', 'customer satisfaction', 'csat', 'satisfaction', 'satisfied', 'survey score', 'survey scores', 'survey rating'],
  ['calls', 'contacts', 'interactions', 'conversations', 'handled'],
  ['admission', 'hospitalizations', 'hospitalisations', 'hospitalization', 'hospitalisation', 'hospitalized', 'hospitalised', 'admitted', 'inpatient stays', 'hospital stays', 'hospital visits'],
  ['length of stay', 'days in hospital', 'inpatient days', 'los'],
  ['revenue', 'sales', 'turnover', 'top line', 'top-line'],
  ['net margin', 'profit margin', 'net income margin', 'net profit margin', 'profitability', 'margins'],
  ['growth', 'cagr', 'compound annual', 'grew', 'grows', 'growing'],
  ['hold', 'on hold', 'hold time', 'holds', 'waiting time', 'wait time'],
  ['quality', 'quality assurance', 'qa', 'evaluation', 'evaluations', 'evaluators'],
  ['medication', 'medications', 'medicines', 'drugs', 'drug', 'prescribed', 'prescriptions', 'prescription', 'takes', 'taking', 'treated with', 'on medication'],
  ['diagnosis', 'diagnoses', 'diagnosed', 'condition'],
  ['driver', 'contact reason', 'call reason', 'reason for calling', 'reasons', 'reason', 'why customers call', 'calls are about'],
  ['segment', 'business line', 'business lines', 'division', 'divisions', 'business unit'],
  ['sector', 'industry'],
  ['risk', 'risks', 'risk factors', 'risk factor'],
  ['loss', 'losses', 'unprofitable', 'in the red', 'lost money', 'net loss'],
  ['debt', 'leverage', 'borrowings', 'indebtedness'],
  ['allergy', 'allergies', 'allergic', 'allergen', 'allergens'],
  ['rank', 'ranks', 'ranked', 'ranking', 'placing'],
  ['deviation', 'standard deviations', 'standard deviation', 'std devs', 'std dev', 'z-score', 'z score', 'sigma', 'σ', 'sd'],
  ['most', 'most frequent', 'most common', 'most often', 'leading', 'largest', 'biggest', 'main', 'principal', 'primary', 'top', 'dominant', 'usually', 'mostly', 'chiefly', 'mainly'],
  ['share', 'proportion', 'fraction'],
  ['average', 'mean', 'typical', 'on average', 'averages', 'averaged', 'averaging'],
  ['trip', 'trips', 'ride', 'rides', 'journey', 'journeys'],
  ['start', 'starts', 'started', 'starting', 'began', 'begin', 'begins', 'origin', 'leaving', 'leave', 'leaves', 'departing', 'depart', 'departs', 'departed', 'departures', 'departure'],
];

const STOPWORDS = new Set(
  ('a an the of in on at to for from by with and or is are was were be been being this that these those it its their ' +
    'what which who whom how many much did does do has have had per than as into over under between within about ' +
    'same improve worsen worse better up down value values number total use used when where while there ' +
    'each every all any his her our your they them we you i s n vs versus e g ie eg first last record records recorded among those').split(' '),
);

const ALIASES = new Map<string, string>();
for (const [canonical, ...variants] of PARAPHRASES) {
  for (const phrase of [canonical!, ...variants]) ALIASES.set(phrase, canonical!);
}
const ALIAS_PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}])(${[...ALIASES.keys()].sort((a, b) => b.length - a.length).map((phrase) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);

/** Lower case, underscores as spaces, every paraphrase replaced by its group's first phrase. */
export function normaliseText(text: string): string {
  return text.toLowerCase().replaceAll('_', ' ').replace(ALIAS_PATTERN, (phrase) => ALIASES.get(phrase) ?? phrase);
}

/**
 * A word's Porter stem (the `stemmer` package): escalated/escalation, admission/admissions, departures/departure
 * conflate; transfer/transcript/transaction no longer do, as the first-five-letters prefix this replaced made them.
 */
export function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    if (stems.size < 100_000) stems.set(word, stemmed);
  }
  return stemmed;
}
const stems = new Map<string, string>();

/** The stemmed content words of already normalised text, with their word positions. */
export function termPositions(text: string): Array<{ term: string; position: number; start: number }> {
  const terms: Array<{ term: string; position: number; start: number }> = [];
  let position = 0;
  for (const match of text.matchAll(/[\p{L}σ][\p{L}\p{N}]*(?:'[\p{L}]+)?/gu)) {
    const word = match[0].replace(/'s$/, '');
    position += 1;
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    terms.push({ term: stem(word), position, start: match.index });
  }
  return terms;
}

/** The words of an identifier-like entity id ("P-0042", "billing") that must not count as subject terms. */
function entityTerms(entityId: string | undefined): Set<string> {
  return new Set(entityId ? termPositions(normaliseText(entityId)).map(({ term }) => term) : []);
}

/**
 * The subject terms of a checklist item, weighted: the content words of its question (weight 1) and of the
 * documentation of the columns its verification SQL reads (weight 0.5), paraphrases folded, the entity's own id
 * left out. `documentation` maps a column name (lower case) to its comment in the served database.
 */
export function itemTerms(
  item: ChecklistItem,
  options: { entityId?: string; documentation?: ReadonlyMap<string, string>; measuredUnit?: boolean } = {},
): Map<string, number> {
  const skip = entityTerms(options.entityId);
  const terms = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const { term } of termPositions(normaliseText(text))) {
      if (!skip.has(term)) terms.set(term, Math.max(terms.get(term) ?? 0, weight));
    }
  };
  // The question without its parenthesised notes ("(same: within 5 %)") and units clause.
  add(item.question.replace(/\([^)]*\)/g, ' ').replace(/\b(improve|increase|rise|go up)\b[^?]*?\b(stay|remain)\b[^?]*?\b(same|stable)\b/i, ' ').replace(/,?\s+in (percent|seconds|days|points|usd[^?]*)\?/i, '?'), 1);
  // A unit of measurement in the question ("in days", "how many standard deviations") is not the subject; a counted
  // unit is ("how many admissions").
  if (item.unit && options.measuredUnit) for (const { term } of termPositions(normaliseText(item.unit))) terms.delete(term);
  if (options.documentation) {
    const sql = (item.verification_sql ?? '').toLowerCase();
    for (const [column, comment] of options.documentation) {
      const name = column.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      // The column that selects the entity ("patient_id = 'P-0042'") is in every item: its documentation says nothing about one.
      // A count's selecting column is what it counts, though ("trips with departure station S000": departures).
      const counts = /^\s*select\s+count\(\s*\*\s*\)\s+from\b/.test(sql);
      const selectsEntity = !counts && options.entityId !== undefined && new RegExp(`(?<![a-z0-9_])${name}\\s*=\\s*'${options.entityId.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'`).test(sql);
      if (!selectsEntity && new RegExp(`(?<![a-z0-9_])${name}(?![a-z0-9_])`).test(sql)) {
        add(column, 0.5);
        // Only the first sentence of a comment: the rest lists values and caveats, not the subject.
        add(comment.split(/(?<=[.;:])\s/)[0] ?? comment, 0.5);
      }
    }
  }
  return terms;
}

/**
 * Weights each item's terms by how specific they are within its checklist (a term every item shares, such as the
 * entity kind, weighs little): weight × log(1 + items / items having the term), where a term an item has only from
 * column documentation counts as half an occurrence.
 */
export function specificTerms(termsByItem: ReadonlyArray<Map<string, number>>): Array<Map<string, number>> {
  const frequency = new Map<string, number>();
  for (const terms of termsByItem) for (const [term, weight] of terms) frequency.set(term, (frequency.get(term) ?? 0) + weight);
  const count = termsByItem.length;
  return termsByItem.map((terms) => new Map([...terms].map(([term, weight]) => [term, weight * Math.log(1 + count / frequency.get(term)!)])));
}

/**
 * Each item's key terms: the terms of its question that at most half of the checklist's questions share (one of
 * them must stand near a value for the value to be about the item); when none is that specific, its heaviest term
 * and the terms only its column documentation gives it.
 */
export function keyTerms(termsByItem: ReadonlyArray<Map<string, number>>, weighted: ReadonlyArray<Map<string, number>>): Array<Set<string>> {
  const questions = new Map<string, number>();
  for (const terms of termsByItem) for (const [term, weight] of terms) if (weight === 1) questions.set(term, (questions.get(term) ?? 0) + 1);
  return termsByItem.map((terms, index) => {
    const specific = [...terms].filter(([term, weight]) => weight === 1 && questions.get(term)! <= Math.max(1, termsByItem.length / 2)).map(([term]) => term);
    if (specific.length > 0) return new Set(specific);
    // Else its heaviest term, and the documentation's terms no other item has ("departure" for a count of trips by
    // departure station).
    const heaviest = Math.max(0, ...weighted[index]!.values());
    const documented = [...terms].filter(([term, weight]) => weight < 1 && termsByItem.every((other, position) => position === index || !other.has(term))).map(([term]) => term);
    return new Set([...[...weighted[index]!].filter(([, weight]) => weight >= heaviest - 1e-9).map(([term]) => term), ...documented]);
  });
}
