import { describe, expect, it } from 'vitest';
import { arrow } from '../../../mcp-servers/transcripts/apache-arrow.ts';
import { tableFromColumns } from '../../../mcp-servers/transcripts/arrow-columns.ts';

const schema = new arrow.Schema([
  new arrow.Field('text', new arrow.Utf8(), true),
  new arrow.Field('turn', new arrow.Int32(), false),
  new arrow.Field('start_s', new arrow.Float64(), true),
  new arrow.Field('resolved', new arrow.Int8(), true),
  new arrow.Field('vector', new arrow.FixedSizeList(2, new arrow.Field('item', new arrow.Float32(), true)), true),
]);

describe('tableFromColumns', () => {
  it('keeps every value, multi-byte UTF-8 and nulls included, in the schema order', () => {
    // Multi-byte characters shift every later string's byte offset: a wrong offset shows as a mangled neighbour.
    const text = ['café ’ naïve', null, '', '日本語 ok', 'plain'];
    const table = tableFromColumns(schema, {
      vector: [new Float32Array([1, 2]), null, new Float32Array([3, 4]), new Float32Array([5, 6]), new Float32Array([7, 8])],
      resolved: [1, 0, null, 1, null],
      start_s: [0.5, null, 2, 3.25, 4],
      turn: [0, 4, 8, 12, 16],
      text,
    });
    expect(table.schema.fields.map((field) => field.name)).toEqual(['text', 'turn', 'start_s', 'resolved', 'vector']);
    expect(table.numRows).toBe(5);
    expect(table.getChild('text')!.toArray()).toEqual(text);
    expect([...table.getChild('turn')!.toArray()]).toEqual([0, 4, 8, 12, 16]);
    expect(Array.from({ length: 5 }, (_, i) => table.getChild('start_s')!.get(i))).toEqual([0.5, null, 2, 3.25, 4]);
    expect(Array.from({ length: 5 }, (_, i) => table.getChild('resolved')!.get(i))).toEqual([1, 0, null, 1, null]);
    expect([...table.getChild('vector')!.get(3)!]).toEqual([5, 6]);
    expect(table.getChild('vector')!.get(1)).toBeNull();
  });

  it('refuses a column missing or of another length than the first', () => {
    expect(() => tableFromColumns(schema, { text: ['a'], turn: [1, 2], start_s: [1], resolved: [1], vector: [null] })).toThrow(/turn: 2 values for 1 rows/);
    expect(() => tableFromColumns(schema, { text: ['a'], turn: [1], start_s: [1], resolved: [1] })).toThrow(/vector: no values/);
  });
});
