/**
 * Negation-aware indexing: the content word a negation cue governs (the first after it, never past punctuation) is
 * indexed as `not<word>` (the scope ends at a conjunction or preposition such as but, after, even), so "I could not
 * resolve it" holds `notresolve` and no longer matches a search for "resolved", while a search for "not resolved"
 * (marked the same way) finds it. Function words inside the scope (it, my, in, for …) are left as they are and not
 * counted: marked, they became rare tokens (`notin`, `notmy`) that matched by accident ("no connection in my area"
 * found "not logged in"). Contractions are spelled out first ("won't" → "will not"), so the tokenizer never splits
 * them into stray words ("won't" gave `won`, which matched the speech-recognition error "for won moment"). The
 * same function marks the indexed text and the query, so both sides always agree.
 */
const CUES = 'not|never|no|cannot|unable to|without|nothing';
const NEGATED = new RegExp(`\\b(${CUES})((?:\\s+[a-z]+){1,8})`, 'gi');
/**
 * Content words a cue governs: the first only. With three, the topic after the negated verb was marked too ("do
 * not recognise this fee" held `notfee`, so a search for "fee" missed the very call disputing one); the first
 * content word is the negated verb or adjective in nearly every sentence of a call ("never delivered", "not fixed").
 */
const SCOPE_WORDS = 1;

/** The cue words themselves (lower case): a query's meaning is in the words they mark, not in the cue. */
export const NEGATION_CUES = new Set(['not', 'never', 'no', 'cannot', 'unable', 'without', 'nothing']);

/** Words that end a negation's scope (as NegEx's termination terms): "not even after restarting" negates nothing. */
const TERMINATORS = new Set(['but', 'however', 'although', 'though', 'because', 'since', 'after', 'before', 'when', 'while', 'until', 'if', 'even', 'and', 'or', 'so', 'then']);

/** Function words: inside a negation's scope they are neither marked nor counted. */
const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'to', 'of', 'in', 'on', 'at', 'for', 'with', 'from', 'by', 'as', 'into', 'about', 'up', 'out',
  'my', 'your', 'our', 'their', 'his', 'her', 'its', 'me', 'you', 'i', 'we', 'they', 'it', 'this', 'that', 'these', 'those',
  'is', 'are', 'was', 'were', 'be', 'been', 'am', 'do', 'does', 'did', 'have', 'has', 'had', 'will', 'would', 'should',
  'could', 'can', 'any', 'anything', 'yet', 'just', 'really', 'quite', 'very', 'too',
]);

const CONTRACTIONS: Array<[RegExp, string]> = [
  [/\bwon[’']t\b/gi, 'will not'],
  [/\bcan[’']t\b/gi, 'cannot'],
  [/\b([a-z]+)n[’']t\b/gi, '$1 not'],
];

export function markNegation(text: string): string {
  let spelled = text;
  for (const [pattern, replacement] of CONTRACTIONS) spelled = spelled.replace(pattern, replacement);
  return spelled.replace(NEGATED, (_match, cue: string, words: string) => {
    let ended = false;
    let marked = 0;
    return `${cue}${words.replace(/([a-z]+)/gi, (word: string) => {
      const lower = word.toLowerCase();
      ended ||= TERMINATORS.has(lower) || marked >= SCOPE_WORDS;
      if (ended || FUNCTION_WORDS.has(lower)) return word;
      marked++;
      return `not${word}`;
    })}`;
  });
}
