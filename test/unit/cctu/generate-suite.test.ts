import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../../databases/worlds/index.ts';
import { generateSuite, suiteStats } from '../../../episodes/cctu-generator/index.ts';
import { CONSTRAINT_CATEGORIES } from '../../../src/schemas/constraint.ts';

const suite = generateSuite({ seed: 1 });

describe('CCTU-style generator', () => {
  it('writes 200 tasks, 50 per structure, about 9 tools each, from at least 20 domains', () => {
    const stats = suiteStats(suite);
    expect(stats.perStructure).toEqual({ 'single-hop': 50, 'parallel-single-hop': 50, 'multi-hop': 50, 'parallel-multi-hop': 50 });
    expect(stats.toolsPerTask).toBeGreaterThan(8.5);
    expect(stats.toolsPerTask).toBeLessThanOrEqual(9);
    expect(DOMAINS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(suite.map((task) => task.domain)).size).toBeGreaterThanOrEqual(20);
  });

  it('samples constraints the CCTU way: 4–12 kinds per task, mean about 7, all 12 categories present', () => {
    const stats = suiteStats(suite);
    expect(stats.constraintTypes.min).toBeGreaterThanOrEqual(4);
    expect(stats.constraintTypes.max).toBeLessThanOrEqual(12);
    expect(stats.constraintTypes.mean).toBeGreaterThan(6.5);
    expect(stats.constraintTypes.mean).toBeLessThan(7.8);
    expect(Object.keys(stats.casesPerCategory).sort()).toEqual(CONSTRAINT_CATEGORIES.filter((category) => category !== 'custom' && category !== 'python').sort());
    for (const task of suite) {
      const categories = new Set(task.constraints.map((constraint) => constraint.category));
      for (const always of ['resource.interaction_rounds', 'toolset.available_tools', 'toolset.required_parameters', 'toolset.parameter_types'] as const) expect(categories).toContain(always);
      const parallel = task.grading.structure.startsWith('parallel');
      const multi = task.grading.structure.endsWith('multi-hop');
      if (!multi) expect(categories).not.toContain('behavior.sequential_dependencies');
      if (!parallel) {
        expect(categories).not.toContain('behavior.parallel_dependencies');
        expect(categories).not.toContain('behavior.parallel_calls_count');
      }
    }
  });

  it('uses CCTU-like values: rounds max 20 in about half the tasks; JSON answers never carry a start, end or closing period', () => {
    const roundsMax = suite.map((task) => task.constraints.find((constraint) => constraint.category === 'resource.interaction_rounds')?.params);
    const twenty = roundsMax.filter((params) => params && 'max' in params && params.max === 20).length;
    expect(twenty).toBeGreaterThan(70);
    expect(twenty).toBeLessThan(130);
    for (const task of suite) {
      const format = task.constraints.find((constraint) => constraint.category === 'response.format');
      const content = task.constraints.find((constraint) => constraint.category === 'response.content');
      if (format?.category === 'response.format' && format.params.format === 'json' && content?.category === 'response.content') {
        expect(content.params).not.toHaveProperty('endingPunctuation');
        expect(content.params).not.toHaveProperty('startsWith');
        expect(content.params).not.toHaveProperty('endsWith');
      }
    }
  });

  it('is deterministic for a seed and different for another', () => {
    expect(generateSuite({ seed: 1, perStructure: 3 })).toEqual(generateSuite({ seed: 1, perStructure: 3 }));
    expect(generateSuite({ seed: 2, perStructure: 3 }).map((task) => task.query)).not.toEqual(generateSuite({ seed: 1, perStructure: 3 }).map((task) => task.query));
  });

  it('multi-hop subqueries chain: each later hop asks about the entity the previous hop found', () => {
    for (const task of suite.filter((candidate) => candidate.grading.structure === 'multi-hop')) {
      const subqueries = task.grading.subqueries;
      expect(subqueries.length).toBeGreaterThanOrEqual(2);
      for (const [index, subquery] of subqueries.entries()) {
        if (index === 0) continue;
        expect(subquery.dependsOn).toEqual([index - 1]);
        expect(subquery.query).toContain(`"${subqueries[index - 1]?.answer}"`);
      }
    }
  });
});
