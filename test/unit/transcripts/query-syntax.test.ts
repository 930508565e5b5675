import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFullTextQuery, expandWord, markNegation, parseQuery, readSynonymsFile, ToolInputError } from '../../../mcp-servers/transcripts/index.ts';

describe('query syntax', () => {
  it('reads phrases, exclusions, OR and words', () => {
    expect(parseQuery('refund "next bill" -cancel -"switch provider" OR credit')).toEqual({
      words: ['refund', 'credit'], phrases: ['next bill'], excluded: ['cancel', 'switch provider'], anyOf: true,
    });
    // A lone quote is not a phrase; lower-case "or" is a word.
    expect(parseQuery('"  a or b')).toEqual({ words: ['a', 'or', 'b'], phrases: [], excluded: [], anyOf: false });
    expect(() => parseQuery('-cancel')).toThrow(ToolInputError);
  });

  // The rule (negation.ts): a cue marks the first content word after it, skipping function words, never past
  // punctuation or a scope terminator; contractions are spelled out first.
  it('marks the content word a negation governs, skipping function words, not past punctuation or a terminator', () => {
    expect(markNegation('I could not resolve it today. Resolved now')).toBe('I could not notresolve it today. Resolved now');
    expect(markNegation('nothing works, not even after restarting the router')).toBe('nothing notworks, not even after restarting the router');
    expect(markNegation("it isn't fixed")).toBe('it is not notfixed');
    expect(markNegation("the phone won't activate")).toBe('the phone will not notactivate');
    // Function words are neither marked nor counted: the topic after the negated verb stays searchable.
    expect(markNegation('no connection in my area')).toBe('no notconnection in my area');
    expect(markNegation('I do not recognise this fee')).toBe('I do not notrecognise this fee');
  });
});

describe('full-text query', () => {
  const vocabulary = new Map([['package', 40], ['delivered', 30], ['never', 90], ['customer', 500], ['refund', 60]]);
  it('drops a negation cue that marked a word, and role words when other words remain', () => {
    // The negated word also searches the word itself as an expansion (~): full-text-query.ts's rule.
    expect(buildFullTextQuery('package never delivered', { expansion: { vocabulary, morphology: false } }).terms).toEqual(['package', 'notdelivered', '~delivered']);
    expect(buildFullTextQuery('never', { expansion: { vocabulary, morphology: false } }).terms).toEqual(['never']);
    expect(buildFullTextQuery('customer wants a refund', { expansion: { vocabulary, morphology: false } }).terms).toEqual(['wants', 'a', 'refund']);
    expect(buildFullTextQuery('customer', { expansion: { vocabulary, morphology: false } }).terms).toEqual(['customer']);
  });

  it('searches a negated word itself at expansion weight, never the negated form for a word typed plainly', () => {
    // "not resolved": notresolved at the typed weight, resolved as an expansion; "resolved" alone adds no negation.
    const expansion = { vocabulary: new Map([['resolved', 50]]), morphology: false };
    expect(buildFullTextQuery('not resolved', { expansion }).terms).toEqual(['notresolved', '~resolved']);
    expect(buildFullTextQuery('resolved', { expansion }).terms).toEqual(['resolved']);
    // Without expansion sources nothing is added.
    expect(buildFullTextQuery('not resolved').terms).toEqual(['notresolved']);
  });

  it('treats a typed word that starts with "not" as a plain word, not a negated form', () => {
    // Rule (full-text-query.ts): a negated form is one the marking made. "notebook" is absent from this index's
    // vocabulary; as a negated form it would have added "~ebook" and dropped the cue words. Nothing is negated here.
    const expansion = { vocabulary: new Map([['charger', 20], ['no', 90], ['ebook', 3]]), morphology: false };
    expect(buildFullTextQuery('notebook charger', { expansion }).terms).toEqual(['notebook', 'charger']);
    // Typed together with a real negation, only the marked word is negated, and the cue still goes.
    expect(buildFullTextQuery('notebook no charger', { expansion }).terms).toEqual(['notebook', 'notcharger', '~charger']);
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

  it('expands no stop word (the index drops them) and no WordNet abbreviation', () => {
    // By the or → our spelling rule alone, "for" would become "four"; "for" is on the index's stop list.
    expect(expandWord('for', { vocabulary: new Map([['for', 900], ['four', 300]]) })).toEqual([]);
    expect(expandWord('color', { vocabulary: new Map([['color', 9], ['colour', 9]]) })).toEqual(['colour']);
    // WordNet lists "s" for "second": shorter than 3 letters, an abbreviation, not a word said for it.
    expect(expandWord('second', { vocabulary: new Map([['moment', 9], ['s', 9]]), wordNet: { second: ['moment', 's'] } })).toEqual(['moment']);
  });

  it('skips a base form the corpus holds too rarely to be more than a misheard word', () => {
    // "doe" (10 turns) is under a tenth of "does" (500): a speech-recognition error, not the base form.
    expect(expandWord('does', { vocabulary: new Map([['does', 500], ['doe', 10]]) })).toEqual([]);
    expect(expandWord('charged', { vocabulary: new Map([['charged', 40], ['charge', 300], ['charg', 2]]) })).toEqual(['charge']);
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
