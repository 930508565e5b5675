import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeZodError } from '../../../src/schemas/describe-zod-error.ts';
import { ConstraintSchema } from '../../../src/schemas/constraint.ts';

function firstIssuePath(value: unknown): string {
  const parsed = ConstraintSchema.safeParse(value);
  expect(parsed.success).toBe(false);
  return parsed.error!.issues[0]!.path.join('.');
}

describe('constraint params of the wrong shape are rejected at load, naming the field', () => {
  it.each([
    [{ id: 'a', category: 'resource.tool_call_count', params: { max: '3' } }, 'params.max'],
    [{ id: 'a', category: 'resource.tool_call_count', params: { min: 5, max: 3 } }, 'params.max'],
    [{ id: 'a', category: 'resource.interaction_rounds', params: { max: -1 } }, 'params.max'],
    [{ id: 'a', category: 'resource.specific_tool_call_count', params: { limits: { search: 1.5 } } }, 'params.limits.search'],
    [{ id: 'a', category: 'behavior.sequential_dependencies', params: { chains: ['only_one'] } }, 'params.chains.0'],
    [{ id: 'a', category: 'behavior.parallel_calls_count', params: { unit: 'num' } }, 'params.unit'],
    [{ id: 'a', category: 'response.length', params: { max: 10 } }, 'params.unit'],
    [{ id: 'a', category: 'response.format', params: { format: 'yaml' } }, 'params.format'],
    [{ id: 'a', category: 'response.content', params: { identifiers: ['brackets'] } }, 'params.identifiers.0'],
    [{ id: 'a', category: 'custom', params: { name: 'x' } }, 'params.source'],
    [{ id: 'a', category: 'resource.unknown', params: {} }, 'category'],
  ])('%j → %s', (value, path) => {
    expect(firstIssuePath(value)).toBe(path);
  });

  it('the load error names the file and the JSON path of the field', () => {
    const parsed = z.object({ constraints: z.array(ConstraintSchema) }).safeParse({
      constraints: [{ id: 'c1', category: 'resource.tool_call_count', params: { min: 4, max: 2 } }],
    });
    expect(describeZodError('task.json', parsed.error!)).toBe('task.json: constraints[0].params.max: max must be at least min');
  });
});
