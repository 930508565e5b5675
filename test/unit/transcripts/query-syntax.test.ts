import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandWord, markNegation, parseQuery, readSynonymsFile, ToolInputError } from '../../../mcp-servers/transcripts/index.ts';

describe('query syntax', () => {
  it('reads phrases, exclusions, OR and words', () => {
    expect(parseQuery('refund "next bill" -cancel -"switch provider" OR credit')).toEqual({
      words: ['refund', 'credit'], phrases: ['next bill'], excluded: ['cancel', 'switch provider'], anyOf: true,
    });
    // A lone quote is not a phrase; lower-case "or" is a word.
    expect(parseQuery('"  a or b')).toEqual({ words: ['a', 'or', 'b'], phrases: [], excluded: [], anyOf: false });
    expect(() => parseQuery('-cancel')).toThrow(ToolInputError);
  });

  it('marks the words a negation governs, up to three, not past punctuation or a terminator', () => {
    expect(markNegation('I could not resolve it today. Resolved now')).toBe('I could not notresolve notit nottoday. Resolved now');
    expect(markNegation('nothing works, not even after restarting the router')).toBe('nothing notworks, not even after restarting the router');
    expect(markNegation("it isn't fixed")).toBe("it isn't notfixed");
  });
});

describe('query expansion', () => {
  const vocabulary = new Map([['add', 10], ['recognise', 5], ['resolved', 50], ['close', 9]]);
  it('adds base forms, spellings and negated forms the index holds', () => {
    expect(expandWord('adding', { vocabulary })).toContain('add');
    expect(expandWord('recognize', { vocabulary })).toEqual(['recognise']);
    expect(expandWord('unresolved', { vocabulary })).toEqual(['not resolved']);
    expect(expandWord('adding', { vocabulary, morphology: false })).toEqual([]);
  });

  it('reads a synonyms file and names the bad line', () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'synonyms-'));
    try {
      const file = path.join(directory, 'synonyms.txt');
      writeFileSync(file, '# contact center\nmanager, supervisor\nquit => cancel, close\n');
      const synonyms = readSynonymsFile(file);
      expect(synonyms.get('manager')).toEqual(['supervisor']);
      expect(synonyms.get('supervisor')).toEqual(['manager']);
      expect(synonyms.get('quit')).toEqual(['cancel', 'close']);
      expect(synonyms.has('cancel')).toBe(false);
      expect(expandWord('quit', { vocabulary, synonyms })).toEqual(['cancel', 'close']);
      writeFileSync(file, 'ok, fine\njustone\n');
      expect(() => readSynonymsFile(file)).toThrow(/synonyms.txt:2:/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
