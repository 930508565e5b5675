import { describe, expect, it } from 'vitest';
import { generateSuite } from '../../../episodes/cctu-generator/index.ts';
import { countTokens, shapeRows, suiteShape } from '../../../src/cli/suite-shape.ts';
import type { CctuTask } from '../../../src/schemas/cctu-task.ts';
import type { Constraint } from '../../../src/schemas/constraint.ts';

const [base] = generateSuite({ seed: 3, perStructure: 1 }) as [CctuTask];
const withConstraints = (id: string, constraints: Constraint[]): CctuTask => ({ ...base, id, constraints });

describe('suiteShape (sandbox tasks --stats)', () => {
  it('counts self-groups (a tool twice in a group), overlapping groups (a tool in two groups), chains and their longest', () => {
    const tasks = [
      withConstraints('a', [{ id: 'g', category: 'behavior.parallel_dependencies', params: { groups: [['x', 'x']] } }]),
      withConstraints('b', [{ id: 'g', category: 'behavior.parallel_dependencies', params: { groups: [['x', 'y'], ['x', 'z']] } }]),
      // Disjoint groups overlap nothing.
      withConstraints('c', [{ id: 'g', category: 'behavior.parallel_dependencies', params: { groups: [['x', 'y'], ['z', 'w']] } }]),
      withConstraints('d', [{ id: 's', category: 'behavior.sequential_dependencies', params: { chains: [['a', 'b'], ['c', 'd', 'e', 'f'], ['g', 'h']] } }]),
    ];
    const shape = suiteShape(tasks);
    expect(shape).toMatchObject({ tasks: 4, selfGroupTasks: 1, overlappingGroupTasks: 1, maxOrderingChains: 3, longestOrderingChain: 4 });
    // The same tools in every task: the distinct names are those of one task.
    expect(shape.distinctTools).toBe(new Set(base.tools.map((tool) => tool.name)).size);
  });

  it('measures prompts with a real tokenizer (cl100k_base), not characters / 4', () => {
    // "hello world" is two tokens in cl100k_base; 11 characters would give 2.75 by the rule of thumb.
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
  });

  it('says per row whether a suite matches or exceeds CCTU', () => {
    const rows = shapeRows(suiteShape([base]));
    expect(rows.map((row) => row[0])).toHaveLength(7);
    // One task cannot hold 411 distinct tools.
    expect(rows[0]?.[3]).toBe('no');
  });
});
