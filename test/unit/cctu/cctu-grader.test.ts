import { describe, expect, it } from 'vitest';
import { solveSubqueries, subqueryMatches, summarizeCctu } from '../../../src/graders/cctu.ts';
import type { EpisodeScore } from '../../../src/schemas/score.ts';

describe('subqueryMatches (CCTU rule)', () => {
  it('splits the golden answer on ", " and matches every piece lower-cased with commas removed', () => {
    expect(subqueryMatches('Paris', '{"capital":"paris"}')).toBe(true);
    expect(subqueryMatches('Paris, Lyon', '{"cities":["Lyon","Paris"]}')).toBe(true);
    expect(subqueryMatches('Paris, Nice', '{"cities":["Lyon","Paris"]}')).toBe(false);
    expect(subqueryMatches('1,200', '{"population":1200}')).toBe(true);
    expect(subqueryMatches('12000', '{"population":"12,000"}')).toBe(true);
  });
});

// Rule 8 (constraints/README.md): CCTU consumes one golden answer per tool message, so one output solves at most one subquery.
describe('solveSubqueries (rule 8: one tool output solves at most one subquery)', () => {
  const twoOfOneTool = [
    { tool: 'registry', answer: 'confirmed' },
    { tool: 'registry', answer: 'confirmed' },
  ];

  it('one "confirmed" output solves the first of two same-tool subqueries, not both', () => {
    expect(solveSubqueries(twoOfOneTool, [{ tool: 'registry', text: '{"status":"confirmed"}' }])).toEqual([true, false]);
  });

  it('two outputs solve both; an output of another tool solves neither', () => {
    expect(solveSubqueries(twoOfOneTool, [{ tool: 'registry', text: 'confirmed' }, { tool: 'registry', text: 'confirmed again' }])).toEqual([true, true]);
    expect(solveSubqueries(twoOfOneTool, [{ tool: 'other', text: 'confirmed' }, { tool: 'registry', text: 'confirmed' }])).toEqual([true, false]);
  });

  it('an output goes to the first unsolved subquery it matches, in order', () => {
    const subqueries = [
      { tool: 't', answer: 'Oslo' },
      { tool: 't', answer: 'Bergen' },
      { tool: 't', answer: 'Oslo' },
    ];
    // "Oslo and Bergen" solves subquery 1 (the first it matches), "Bergen" then solves 2, "Oslo" 3.
    expect(solveSubqueries(subqueries, [{ tool: 't', text: 'Oslo and Bergen' }, { tool: 't', text: 'Bergen' }])).toEqual([true, true, false]);
    expect(solveSubqueries(subqueries, [{ tool: 't', text: 'Oslo and Bergen' }, { tool: 't', text: 'Bergen' }, { tool: 't', text: 'Oslo' }])).toEqual([true, true, true]);
  });
});

function score(structure: string, repeat: number, sr: number, psr: number, statuses: Array<[string, string]>): EpisodeScore {
  return {
    taskId: `${structure}-${repeat}`,
    style: 'cctu',
    repeat,
    status: 'completed',
    passed: sr === 1,
    metrics: { solved: 1, sr, psr },
    details: { structure, constraints: statuses.map(([category, status], index) => ({ id: `c${index}`, category, status })) },
  };
}

describe('summarizeCctu', () => {
  it('reports SR / PSR per structure and overall as mean ± std over repeats, and violation and correction rates', () => {
    const tables = summarizeCctu([
      score('single-hop', 0, 1, 1, [['response.format', 'satisfied']]),
      score('single-hop', 1, 1, 0, [['response.format', 'soft-satisfied']]),
      score('multi-hop', 0, 0, 0, [['resource.tool_call_count', 'unsatisfied']]),
      score('multi-hop', 1, 1, 1, [['resource.tool_call_count', 'satisfied']]),
    ]);
    expect(tables[0]?.rows).toEqual([
      ['single-hop', 2, '100.0 ± 0.0', '100.0 ± 0.0', '50.0 ± 50.0'],
      ['multi-hop', 2, '100.0 ± 0.0', '50.0 ± 50.0', '50.0 ± 50.0'],
      ['overall', 4, '100.0 ± 0.0', '75.0 ± 25.0', '50.0 ± 0.0'],
    ]);
    expect(tables[1]?.rows).toEqual([
      ['resource.tool_call_count', 'resource', 2, 1, '50.0', 0, '0.0', 0],
      ['response.format', 'response', 2, 1, '50.0', 1, '100.0', 0],
      ['all resource', 'resource', 2, 1, '50.0', 0, '0.0', 0],
      ['all response', 'response', 2, 1, '50.0', 1, '100.0', 0],
      ['all constraints', '-', 4, 2, '50.0', 1, '50.0', 0],
    ]);
  });
});
