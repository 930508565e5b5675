import { describe, expect, it } from 'vitest';
import { sandbox } from '../../support/sandbox-cli.ts';

// Acceptance of issue 13: the committed suite matches or exceeds CCTU's column on every row of the shape table.
describe('sandbox tasks --stats (real CLI)', () => {
  it("prints the committed suite's shape beside CCTU's, every row at or above it", () => {
    const table = sandbox('tasks', '--stats', 'episodes/cctu');
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^shape of 200 tasks beside CCTU's/);
    const rows = table.stdout.split('\n').slice(3).filter((line) => line.trim() !== '');
    expect(rows).toHaveLength(7);
    for (const row of rows) expect(row).toMatch(/\byes$/);
    const json = sandbox('tasks', '--stats', 'episodes/cctu', '--json');
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout) as { tasks: number; meanPromptTokens: number; distinctTools: number };
    expect(parsed.tasks).toBe(200);
    expect(parsed.meanPromptTokens).toBeGreaterThan(4700);
    expect(parsed.distinctTools).toBeGreaterThanOrEqual(411);
  }, 240_000);

  // Issue 19's acceptance: every compound plan has 5–15 steps, every simple one 1–4 (the paper's shape); a plan suite
  // has no tools and no constraints, so the CCTU table (which would read 0 on every row) is not printed for it.
  it('prints the planning suite\'s step and hop distributions beside the paper\'s, without a CCTU table', () => {
    const table = sandbox('tasks', '--stats', 'episodes/plan');
    expect(table.status).toBe(0);
    expect(table.stdout).not.toMatch(/beside CCTU's/);
    expect(table.stdout).toMatch(/^plan tasks: reference-plan shape/);
    const json = sandbox('tasks', '--stats', 'episodes/plan', '--json');
    const parsed = JSON.parse(json.stdout) as { tasks?: number; plans: Array<{ stratum: string; tasks: number; steps: Record<string, number>; outsidePaper: number }> };
    expect(parsed.tasks).toBeUndefined();
    expect(parsed.plans.map((row) => [row.stratum, row.tasks, row.outsidePaper])).toEqual([
      ['objective-compound', 50, 0], ['objective-simple', 50, 0], ['subjective-compound', 50, 0], ['subjective-simple', 50, 0],
    ]);
    for (const row of parsed.plans) {
      const [low, high] = row.stratum.endsWith('compound') ? [5, 15] : [1, 4];
      for (const count of Object.keys(row.steps).map(Number)) expect(count >= low && count <= high, `${row.stratum} ${count}`).toBe(true);
    }
    // Issue 32: the committed suite's compound plans from at least 40 analysis skeletons, no two questions within a
    // trigram cosine of 0.9 — as the command reports them, in both forms.
    const variety = (JSON.parse(json.stdout) as { planVariety: { compound: number; skeletons: number; nearest: { similarity: number } } }).planVariety;
    expect(variety.compound).toBe(100);
    expect(variety.skeletons).toBeGreaterThanOrEqual(40);
    expect(variety.nearest.similarity).toBeLessThan(0.9);
    expect(table.stdout).toContain(`100 compound plans of `);
    expect(table.stdout).toContain(`: ${variety.skeletons} analysis skeletons, `);
  }, 120_000);

  it('a suite that does not exist is a clear error with the not-found exit code', () => {
    const result = sandbox('tasks', '--stats', 'episodes/no-such-suite');
    expect(result.status).toBe(5);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
