import { describe, expect, it } from 'vitest';
import { ToolLists } from '../../../src/export/tool-lists.ts';

/** A tools list as a record holds it, parsed from its JSON text (every episode's list is an object of its own). */
const list = (text: string) => JSON.parse(text) as Parameters<ToolLists['indexOf']>[1];
const LOOKUP = '[{"type":"function","function":{"name":"lookup","description":"finds a record","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}}]';

describe('ToolLists: each distinct tools list once', () => {
  it('an equal list of the same task (another object) gets the index of the first; lines() writes each list once, in index order', () => {
    const lists = new ToolLists(1024 * 1024);
    expect(lists.indexOf('task-a', list(LOOKUP))).toBe(0);
    expect(lists.indexOf('task-a', list(LOOKUP))).toBe(0);
    const other = LOOKUP.replace('finds a record', 'finds a row');
    expect(lists.indexOf('task-a', list(other))).toBe(1);
    expect(lists.indexOf('task-a', list(other))).toBe(1);
    expect(lists.lines()).toBe(`{"index":0,"tools":${LOOKUP}}\n{"index":1,"tools":${other}}\n`);
  });

  it('the same values with keys in another order are another list (a tool\'s parameters are kept as JSON text)', () => {
    const lists = new ToolLists(1024 * 1024);
    lists.indexOf('task-a', list(LOOKUP));
    expect(lists.indexOf('task-a', list(LOOKUP.replace('"required":["id"]', '"required":["id"],"additionalProperties":false')))).toBe(1);
    const reordered = LOOKUP.replace('"type":"object","properties":{"id":{"type":"string"}}', '"properties":{"id":{"type":"string"}},"type":"object"');
    expect(JSON.parse(reordered)).toEqual(JSON.parse(LOOKUP));
    expect(lists.indexOf('task-a', list(reordered))).toBe(2);
  });

  it('lists of different shapes are different: a longer list, a value of another type', () => {
    const lists = new ToolLists(1024 * 1024);
    lists.indexOf('task-a', list(LOOKUP));
    const tool = LOOKUP.slice(1, -1);
    expect(lists.indexOf('task-a', list(`[${tool},${tool}]`))).toBe(1);
    expect(lists.indexOf('task-a', list(LOOKUP.replace('["id"]', '{"0":"id"}')))).toBe(2);
    expect(lists.indexOf('task-a', list('[]'))).toBe(3);
  });

  it('keeps lists up to maxBytes of their JSON: a new list past it is not kept (null), a kept one is still found', () => {
    const other = LOOKUP.replace('finds a record', 'finds a row');
    const lists = new ToolLists(LOOKUP.length + other.length);
    expect(lists.indexOf('task-a', list(LOOKUP))).toBe(0);
    expect(lists.indexOf('task-b', list(other))).toBe(1);
    expect(lists.indexOf('task-b', list('[]'))).toBeNull();
    expect(lists.indexOf('task-a', list(LOOKUP))).toBe(0);
    expect(lists.size).toBe(2);
    expect(lists.lines()).toBe(`{"index":0,"tools":${LOOKUP}}\n{"index":1,"tools":${other}}\n`);
  });
});
