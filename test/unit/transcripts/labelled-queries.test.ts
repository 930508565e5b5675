// The labelled queries must be an analyst's words, not the generator's: no query shares a run of four words with
// any phrasing of the transcript lexicons, and no query's grade is just its filter.
import { describe, expect, it } from 'vitest';
import * as LEXICON from '../../../databases/contact-center/transcript-lexicon.ts';
import { filtersToCallSql, HELD_OUT_INTENTS, QUERY_INTENTS } from '../../../mcp-servers/transcripts/index.ts';

const words = (text: string) => text.toLowerCase().replace(/\{[a-z_]+\}/g, ' ').match(/[a-z']+/g) ?? [];
const runs = (list: string[], n: number) => list.slice(0, Math.max(0, list.length - n + 1)).map((_, i) => list.slice(i, i + n).join(' '));

function phrasings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(phrasings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(phrasings);
  return [];
}

describe('labelled queries', () => {
  it('has at least 60 queries with unique ids, none shared with the held-out set', () => {
    expect(QUERY_INTENTS.length).toBeGreaterThanOrEqual(60);
    const ids = [...QUERY_INTENTS, ...HELD_OUT_INTENTS].map((intent) => intent.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shares no run of four words with any generator phrasing', () => {
    const lexiconRuns = new Set(phrasings(LEXICON).flatMap((phrase) => runs(words(phrase), 4)));
    const copied = [...QUERY_INTENTS, ...HELD_OUT_INTENTS].flatMap((intent) => runs(words(intent.query), 4).filter((run) => lexiconRuns.has(run)).map((run) => `${intent.id}: ${run}`));
    expect(copied).toEqual([]);
  });

  it('never grades by exactly its filter', () => {
    for (const intent of [...QUERY_INTENTS, ...HELD_OUT_INTENTS]) {
      if (!intent.filters) continue;
      expect(intent.grade, intent.id).not.toContain(filtersToCallSql(intent.filters));
    }
  });
});
