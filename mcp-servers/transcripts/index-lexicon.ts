import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What query expansion needs from the index: its vocabulary and the WordNet synonyms restricted to it. */
export interface IndexLexicon {
  /** Word (lower case) → number of turns that hold it. */
  vocabulary: Record<string, number>;
  /** WordNet lemma → indexed words of its first senses' synsets. */
  wordNet: Record<string, string[]>;
}

const LEXICON_FILE = 'lexicon.json';

export async function writeLexicon(indexPath: string, lexicon: IndexLexicon): Promise<void> {
  await writeFile(path.join(indexPath, LEXICON_FILE), JSON.stringify(lexicon));
}

export async function readLexicon(indexPath: string): Promise<IndexLexicon> {
  return JSON.parse(await readFile(path.join(indexPath, LEXICON_FILE), 'utf8')) as IndexLexicon;
}
