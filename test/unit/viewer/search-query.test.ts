import { describe, expect, it } from 'vitest';
import { parseSearch } from '../../../src/viewer/search.ts';

describe('the viewer search box (parseSearch)', () => {
  it('takes field:value and field:"quoted value" anywhere; the rest, spaces collapsed, is one phrase', () => {
    expect(parseSearch('  tool:sql_query  average   stay status:limit ')).toEqual({ text: 'average stay', tool: 'sql_query', status: 'limit' });
    expect(parseSearch('violated:"tool order" task:cctu2-mh run:block')).toEqual({ text: '', violated: 'tool order', task: 'cctu2-mh', run: 'block' });
  });

  it('leaves words that only look like fields in the phrase (unknown field, no value, inside a word)', () => {
    expect(parseSearch('model:gpt tool: x')).toEqual({ text: 'model:gpt tool: x' });
    expect(parseSearch('pretask:x')).toEqual({ text: 'pretask:x' });
  });
});
