import { ToolInputError } from './tool-input-error.ts';

/** A search query in the syntax users expect from a search box. */
export interface ParsedQuery {
  /** Plain words, ranked by BM25 (any of them may match). */
  words: string[];
  /** "Quoted phrases": required, words adjacent and in order (optional when the query uses OR). */
  phrases: string[];
  /** -excluded words and -"phrases": a chunk containing one is dropped. */
  excluded: string[];
  /** The query joined clauses with OR: every clause is optional, at least one must match. */
  anyOf: boolean;
}

const TOKEN = /(-?)"([^"]*)"|(\S+)/g;

/**
 * Parses `"exact phrase"`, `-word`, `-"phrase"`, `OR` (upper case, between clauses) and plain words. An
 * unbalanced quote is read as a plain word; a query of exclusions only is rejected (nothing to rank).
 * A query with nothing searchable (punctuation only) parses to empty lists: it matches nothing.
 */
export function parseQuery(query: string): ParsedQuery {
  const parsed: ParsedQuery = { words: [], phrases: [], excluded: [], anyOf: false };
  for (const match of query.matchAll(TOKEN)) {
    const [, minus, phrase, word] = match;
    if (phrase !== undefined) {
      const text = phrase.trim();
      if (!text) continue;
      (minus ? parsed.excluded : parsed.phrases).push(text);
    } else if (word === 'OR') {
      parsed.anyOf = true;
    } else if (word!.startsWith('-') && word!.length > 1) {
      parsed.excluded.push(word!.slice(1));
    } else {
      const clean = word!.replaceAll('"', '');
      if (clean) parsed.words.push(clean);
    }
  }
  if (parsed.words.length === 0 && parsed.phrases.length === 0 && parsed.excluded.length > 0) {
    throw new ToolInputError(`query ${JSON.stringify(query)} only excludes (-word): add words or a "phrase" to look for`);
  }
  return parsed;
}
