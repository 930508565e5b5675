import { describe, expect, it } from 'vitest';
import { summarizeDdr } from '../../../src/graders/ddr.ts';
import type { EpisodeScore } from '../../../src/schemas/score.ts';

const score = (scenario: string, correct: number, items: number, countingK: Array<number | null>, extra: Record<string, number | null | undefined> = {}): EpisodeScore => ({
  taskId: `${scenario}-${correct}`,
  style: 'ddr',
  repeat: 0,
  status: 'completed',
  passed: correct === items,
  // An `undefined` in `extra` removes the metric (the grader leaves out what it did not measure).
  metrics: Object.fromEntries(
    Object.entries({ accuracy: correct / items, correct, items, judge_accuracy: null, table_coverage: 0.5, column_coverage: 0.25, entropy: 0.5, turns: 10, ended_by_itself: 1, ...extra }).filter(([, value]) => value !== undefined),
  ) as Record<string, number | null>,
  details: { scenario, countingK },
});

describe('DDR summary', () => {
  it('reports mean, median and pooled accuracy per scenario, "not judged" without a judge, the tasks\' explorer baseline beside, and the top-k curve', () => {
    const scores = [
      score('clinical', 1, 4, [3, null, null, null], { explorer_accuracy: 0.25 }),
      score('clinical', 6, 6, [1, 2, 2, 5, 9, 30], { explorer_accuracy: 0.75 }),
      score('filings', 0, 5, [null, null, null, null, null], { table_coverage: undefined, column_coverage: undefined, entropy: undefined }),
    ];
    const [table, curve] = summarizeDdr(scores);
    expect(table!.columns).toEqual([
      'scenario', 'episodes', 'acc mean', 'acc median', 'acc pooled', 'judge acc', 'judge msg acc', 'unjudged', 'judge tokens', 'judge cost $',
      'table cov', 'column cov', 'entropy', 'turns', 'ended itself', 'explorer acc',
    ]);
    // The explorer column is the mean of the baselines the tasks record (25 % and 75 %).
    expect(table!.rows[0]).toEqual(['clinical', 2, 62.5, 62.5, 70, 'not judged', 'not judged', 'not judged', 'not judged', 'not judged', 50, 25, 0.5, 10, 100, 50]);
    // No database served: exploration is "not measured", never 0; no baseline recorded: "none".
    expect(table!.rows[1]).toEqual(['filings', 1, 0, 0, 0, 'not judged', 'not judged', 'not judged', 'not judged', 'not judged', 'not measured', 'not measured', 'not measured', 10, 100, 'none']);
    expect(table!.rows[2]!.slice(0, 5)).toEqual(['all', 3, 41.7, 25, 46.7]);
    // clinical: 10 items; counted by k=1: 1, k=2: 3, k=5: 5, k=10: 6, k=30: 7.
    expect(curve!.rows[0]).toEqual(['clinical', 10, 30, 50, 60, 60, 70, 70, 70]);
  });

  it('reports the judge\'s unjudged items, tokens and cost when a judge ran', () => {
    const judged = { judge_accuracy: 0.5, judge_unjudged: 1, judge_input_tokens: 900, judge_output_tokens: 100 };
    const [table] = summarizeDdr([score('clinical', 1, 2, [1, null], { ...judged, judge_cost_usd: 0.02 }), score('clinical', 2, 2, [1, 1], { ...judged, judge_cost_usd: 0.01 })]);
    // Our protocol has no message-wise score: "not judged" beside its judge accuracy.
    expect(table!.rows[0]!.slice(5, 10)).toEqual([50, 'not judged', 2, 2000, 0.03]);
    const [unknown] = summarizeDdr([score('clinical', 1, 2, [1, null], { ...judged, judge_cost_usd: null })]);
    expect(unknown!.rows[0]![9]).toBe('unknown');
  });

  it("puts DDR-Bench's message-wise score beside its chat-wise one, over the entities it judged message-wise", () => {
    const judged = { judge_unjudged: 0, judge_input_tokens: 10, judge_output_tokens: 10, judge_cost_usd: null };
    // Two entities: chat-wise 1/2 and 1; message-wise 1/3 and none (no insight): mean chat (50 + 100) / 2 = 75, message 33.3.
    const [table] = summarizeDdr([
      score('ddr-bench-10k', 0, 0, [], { ...judged, judge_accuracy: 0.5, judge_message_accuracy: 1 / 3 }),
      score('ddr-bench-10k', 0, 0, [], { ...judged, judge_accuracy: 1, judge_message_accuracy: null }),
    ]);
    expect(table!.rows[0]!.slice(5, 7)).toEqual([75, 33.3]);
  });

  it("DDR-Bench's message-wise top-k table (calculate_cumulative_message_stats), pooled over the scenario's items", () => {
    const withReach = (reach: Array<{ correct: number | null; incorrect: number | null }>) => {
      const scored = score('ddr-bench-10k', 0, 0, [], { judge_message_accuracy: 0.5 });
      return { ...scored, details: { ...scored.details, judgeMessageReach: reach } };
    };
    // Four items: correct from k=1 and k=6, incorrect from k=8, one never counted. By hand, over 4 items:
    // top-5 correct 1/4, incorrect 0; top-10 correct 2/4, incorrect 1/4; the same up to top-100.
    const tables = summarizeDdr([withReach([{ correct: 1, incorrect: null }, { correct: null, incorrect: 8 }]), withReach([{ correct: null, incorrect: null }, { correct: 6, incorrect: null }])]);
    const topK = tables[2]!;
    expect(topK.columns.slice(0, 4)).toEqual(['scenario', 'verdict', 'top-5', 'top-10']);
    expect(topK.columns.at(-1)).toBe('top-100');
    expect(topK.rows.map((row) => [row[0], row[1], row[2], row[3], row.at(-1)])).toEqual([
      ['ddr-bench-10k', 'correct', 25, 50, 50],
      ['ddr-bench-10k', 'incorrect', 0, 25, 25],
    ]);
    // Without message-wise verdicts there is no such table.
    expect(summarizeDdr([score('clinical', 1, 1, [1])])).toHaveLength(2);
  });
});
