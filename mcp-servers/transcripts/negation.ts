/**
 * Negation-aware indexing: the words a negation cue governs (up to three, never past punctuation) are indexed as
 * `not<word>` (the scope ends at a conjunction or preposition such as but, after, even), so "I could not resolve it" holds `notresolve` and no longer matches a search for "resolved",
 * while a search for "not resolved" (marked the same way) finds it. The same function marks the indexed text and
 * the query, so both sides always agree.
 */
const CUES = "not|never|no|cannot|can't|won't|don't|doesn't|didn't|isn't|wasn't|aren't|couldn't|haven't|hasn't|unable to|without|nothing";
const NEGATED = new RegExp(`\\b(${CUES})((?:\\s+[a-z]+){1,3})`, 'gi');

/** Words that end a negation's scope (as NegEx's termination terms): "not even after restarting" negates nothing. */
const TERMINATORS = new Set(['but', 'however', 'although', 'though', 'because', 'since', 'after', 'before', 'when', 'while', 'until', 'if', 'even', 'and', 'or', 'so', 'then']);

export function markNegation(text: string): string {
  return text.replace(NEGATED, (_match, cue: string, words: string) => {
    let ended = false;
    return `${cue}${words.replace(/([a-z]+)/gi, (word: string) => {
      ended ||= TERMINATORS.has(word.toLowerCase());
      return ended ? word : `not${word}`;
    })}`;
  });
}
