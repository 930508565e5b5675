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

  it('a suite that does not exist is a clear error with the not-found exit code', () => {
    const result = sandbox('tasks', '--stats', 'episodes/no-such-suite');
    expect(result.status).toBe(5);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
