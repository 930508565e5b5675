// Turns a user's query into LanceDB's full-text query: words ranked by BM25 (any may match), "phrases" and
// -exclusions, OR, expansions at a lower weight, fuzzy matching for words the index (almost) never saw, and
// negation marked the way the index marks it.
import { SEARCH_COLUMN } from './chunk-schema.ts';
import { lancedb } from './lancedb.ts';
import { markNegation, NEGATION_CUES } from './negation.ts';
import { parseQuery } from './parse-query.ts';
import { expandWord, STOP_WORDS, type ExpansionSources } from './query-expansion.ts';

/** Weight of expansion words against the words typed (1). */
export const EXPANSION_BOOST = 0.3;
/** A word held by fewer turns than this is treated as a possible typo and matched fuzzily too. */
export const RARE_WORD_TURNS = 3;
/** Weight of a fuzzy match of a rare or unknown word. */
export const FUZZY_BOOST = 0.8;

export interface QueryOptions {
  /** Expansion sources; without them only the words typed are searched. */
  expansion?: ExpansionSources;
  /** Fuzzy matching of rare and unknown words (default on when a vocabulary is known). */
  fuzzy?: boolean;
}

/** Words that name a transcript's parties or the transcript itself; dropped from a query that has other words. */
const ROLE_WORDS = new Set([
  'customer', 'customers', 'caller', 'callers', 'agent', 'agents', 'rep', 'reps', 'representative', 'representatives',
  'call', 'calls', 'conversation', 'conversations', 'transcript', 'transcripts',
]);

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/** One optional clause of a query: its own full-text query (unboosted) and the weight its BM25 score gets. */
export interface ShouldClause {
  query: lancedb.FullTextQuery;
  boost: number;
}

export interface FullTextPlan {
  /** The whole query as one LanceDB query (null: nothing searchable). */
  query: lancedb.FullTextQuery | null;
  /** The words searched for (typed, "phrases", ~expansions, -exclusions), for display. */
  terms: string[];
  /**
   * When every clause is optional (no required phrase, no exclusion): the clauses, whose weighted BM25 scores
   * add up to the whole query's (a boolean query's Should clauses score Σ boost × clause score); null otherwise.
   */
  should: ShouldClause[] | null;
}

/**
 * The full-text query for a search string, and the words it searches for; `query` is null when nothing in the
 * string is searchable (punctuation only), which matches no chunk.
 */
export function buildFullTextQuery(query: string, options: QueryOptions = {}): FullTextPlan {
  const parsed = parseQuery(query);
  const plain = words(parsed.words.join(' '));
  const marked = words(markNegation(parsed.words.join(' ')));
  // A negated form is a word the marking made ("never delivered" → notdelivered), never one typed as it is: a
  // typed word that happens to start with "not" ("notebook", "notification") is a plain word.
  const typedAsIs = new Set(plain);
  const negated = (word: string) => word.startsWith('not') && word.length > 3 && !typedAsIs.has(word);
  // A cue that marked words ("never delivered" → never notdelivered) says nothing more: searched as a word it
  // matched every other negation in the corpus ("never ordered").
  const cued = marked.some((word) => negated(word) && !options.expansion?.vocabulary.has(word)) ? marked.filter((word) => !NEGATION_CUES.has(word)) : marked;
  // Words naming the call's parties or the call itself ("customer", "caller", "agent", "conversations") describe
  // every transcript: searched, they ranked closing formulas ("thank you for being a customer") above content.
  const content = cued.filter((word) => !ROLE_WORDS.has(word));
  const typed = content.length > 0 ? content : cued;
  const clauses: Array<[lancedb.Occur, lancedb.FullTextQuery]> = [];
  const parts: ShouldClause[] = [];
  const should = lancedb.Occur.Should;
  // An optional match: in the boolean query with its boost, and as a clause of its own (unboosted, weighted after).
  const optionalMatch = (text: string, boost: number, fuzzy?: { fuzziness: number; prefixLength: number }) => {
    clauses.push([should, new lancedb.MatchQuery(text, SEARCH_COLUMN, { ...fuzzy, boost })]);
    parts.push({ query: new lancedb.MatchQuery(text, SEARCH_COLUMN, fuzzy), boost });
  };
  const vocabulary = options.expansion?.vocabulary;
  if (typed.length > 0) optionalMatch(typed.join(' '), 1);
  const expanded = new Set<string>();
  for (const word of typed) {
    const base = negated(word) && !vocabulary?.has(word) ? word.slice(3) : word;
    // A negated word also searches the word itself, as an expansion: the corpus may put the negation elsewhere
    // ("it says delivered but I never got it" for "never delivered") or not hold the negated form at all, and
    // the concept was then lost from the query. The negated form keeps the typed weight (1), the word itself the expansion weight.
    if (options.expansion && base !== word && !STOP_WORDS.has(base)) expanded.add(base);
    if (options.expansion) {
      for (const alternative of expandWord(base, options.expansion)) {
        for (const piece of words(markNegation(base === word ? alternative : `not ${alternative}`))) if (!typed.includes(piece)) expanded.add(piece);
      }
    }
    if ((options.fuzzy ?? vocabulary !== undefined) && vocabulary && base.length >= 4 && (vocabulary.get(base) ?? 0) < RARE_WORD_TURNS) {
      optionalMatch(word, FUZZY_BOOST, { fuzziness: base.length >= 7 ? 2 : 1, prefixLength: 1 });
    }
  }
  if (expanded.size > 0) optionalMatch([...expanded].join(' '), EXPANSION_BOOST);
  const required = parsed.anyOf ? should : lancedb.Occur.Must;
  for (const phrase of parsed.phrases) {
    const query = new lancedb.PhraseQuery(markNegation(phrase), SEARCH_COLUMN);
    clauses.push([required, query]);
    parts.push({ query, boost: 1 });
  }
  for (const excluded of parsed.excluded) {
    const text = markNegation(excluded);
    clauses.push([lancedb.Occur.MustNot, excluded.includes(' ') ? new lancedb.PhraseQuery(text, SEARCH_COLUMN) : new lancedb.MatchQuery(text, SEARCH_COLUMN)]);
  }
  const terms = [...typed, ...parsed.phrases.map((phrase) => `"${phrase}"`), ...[...expanded].map((word) => `~${word}`), ...parsed.excluded.map((word) => `-${word}`)];
  if (!clauses.some(([occur]) => occur !== lancedb.Occur.MustNot)) return { query: null, terms, should: null };
  const onlyShould = clauses.every(([occur]) => occur === should);
  if (clauses.length === 1) return { query: clauses[0]![1], terms, should: onlyShould ? parts : null };
  return { query: new lancedb.BooleanQuery(clauses), terms, should: onlyShould ? parts : null };
}
