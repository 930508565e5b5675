import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { disposeIsolatePool, revalidate, stepsFromEvents } from '../../../src/validator/index.ts';
import { parseTrajectory } from '../../../src/schemas/read-trajectory.ts';
import { TOOLS, constraint } from '../../unit/validator/fixtures.ts';

const URBAN = 'urban_forest_locator';
const CULT = 'cultural_geography_locator';
let dir: string;
let trajectoryFile: string;

function line(event: Record<string, unknown>, seq: number): string {
  return JSON.stringify({ schemaVersion: 1, seq, time: '2026-11-29T10:00:00.000Z', ...event });
}

function toolCalls(...names: string[]) {
  return { role: 'assistant', content: null, tool_calls: names.map((name, index) => ({ id: `${name}-${index}`, type: 'function', function: { name, arguments: '{"city":"Oslo"}' } })) };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'validate-'));
  // A run that made 4 calls over 3 rounds and answered in round 4, under "at most 5 calls, at most 6 rounds".
  const constraints = [
    { id: 'calls', category: 'resource.tool_call_count', params: { max: 5 } },
    { id: 'rounds', category: 'resource.interaction_rounds', params: { max: 6 } },
    { id: 'ending', category: 'response.content', params: { endingPunctuation: '.' } },
  ];
  const events = [
    { type: 'episode-start', taskId: 't1', task: { constraints }, model: 'scripted:x', settings: {}, versions: {}, messages: [{ role: 'user', content: 'q' }], tools: TOOLS },
    { type: 'model-response', round: 1, message: toolCalls(URBAN, URBAN), latencyMs: 1 },
    { type: 'model-response', round: 2, message: toolCalls(CULT), latencyMs: 1 },
    { type: 'model-response', round: 3, message: toolCalls(URBAN), latencyMs: 1 },
    { type: 'model-response', round: 4, message: { role: 'assistant', content: 'Oslo has three urban forests.' }, latencyMs: 1 },
  ];
  trajectoryFile = path.join(dir, 't1.0.jsonl');
  await writeFile(trajectoryFile, `${events.map(line).join('\n')}\n`);
});

afterAll(async () => {
  disposeIsolatePool();
  await rm(dir, { recursive: true, force: true });
});

async function run(...argv: string[]): Promise<{ status: number; out: string }> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  process.exitCode = undefined;
  try {
    const status = await main(argv);
    return { status, out: chunks.join('') };
  } finally {
    spy.mockRestore();
    process.exitCode = undefined;
  }
}

describe('sandbox validate', () => {
  it('re-validates a trajectory under its own constraints: it passes', async () => {
    const { status, out } = await run('validate', trajectoryFile);
    expect(out).toContain('calls            resource.tool_call_count             satisfied');
    expect(out).toContain('would have passed: yes');
    expect(status).toBe(0);
  });

  it('under a tighter constraint ("at most 3 tool calls") it shows what would have been blocked', async () => {
    const tighter = path.join(dir, 'tighter.json');
    await writeFile(tighter, JSON.stringify([{ id: 'calls', category: 'resource.tool_call_count', params: { max: 3 } }]));
    const { status, out } = await run('validate', trajectoryFile, '--constraints', tighter);
    expect(out).toContain(
      'round 3: urban_forest_locator#urban_forest_locator-0\n  calls would block urban_forest_locator-0: INSTRUCTION FOLLOWING ERROR: TOOL CALL COUNT NOT FOLLOWED! Tool calls total 4, at most 3 are allowed',
    );
    // Blocked, then the model answered: soft-satisfied, and the run would still have passed (SR, not PSR).
    expect(out).toContain('calls            resource.tool_call_count             soft-satisfied');
    expect(status).toBe(0);
  });

  it('fewer rounds than the run needed: the episode would have ended with status limit', async () => {
    const tighter = path.join(dir, 'rounds.json');
    await writeFile(tighter, JSON.stringify({ constraints: [{ id: 'rounds', category: 'resource.interaction_rounds', params: { max: 2 } }] }));
    const { status, out } = await run('validate', trajectoryFile, '--constraints', tighter, '--json');
    const report = JSON.parse(out) as { endedAt: number; steps: unknown[]; statuses: Record<string, string>; passed: boolean };
    expect(report.endedAt).toBe(1);
    expect(report.steps).toHaveLength(2);
    expect(report.statuses).toEqual({ rounds: 'unsatisfied' });
    expect(report.passed).toBe(false);
    expect(status).toBe(1);
  });

  it('a constraints file of the wrong shape names the field', async () => {
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify([{ id: 'x', category: 'response.length', params: { max: 'ten', unit: 'words' } }]));
    const errors: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      errors.push(String(chunk));
      return true;
    });
    const { status } = await run('validate', trajectoryFile, '--constraints', bad);
    spy.mockRestore();
    expect(status).toBe(4);
    expect(errors.join('')).toContain('[0].params.max');
  });

  it('re-validation is a fold: the same verdicts every time', async () => {
    const { events } = parseTrajectory(`${(await import('node:fs')).readFileSync(trajectoryFile, 'utf8')}`, trajectoryFile);
    const steps = stepsFromEvents(events);
    const constraints = [constraint('c', 'resource.tool_call_count', { max: 1 }), constraint('p', 'behavior.parallel_calls_count', { max: 1, unit: 'times' })];
    const first = revalidate(constraints, TOOLS, steps);
    expect(first.flat().length).toBeGreaterThan(0);
    for (let repeat = 0; repeat < 3; repeat++) expect(revalidate(constraints, TOOLS, steps)).toEqual(first);
  });

  it('--save writes where the re-validation differs from the recorded checks beside the trajectory', async () => {
    const tighter = path.join(dir, 'tighter-save.json');
    await writeFile(tighter, JSON.stringify([{ id: 'calls', category: 'resource.tool_call_count', params: { max: 3 } }]));
    const { out } = await run('validate', trajectoryFile, '--constraints', tighter, '--save');
    const saved = path.join(dir, 't1.0.validate.json');
    expect(out).toContain(`saved ${saved}`);
    const report = JSON.parse(await readFile(saved, 'utf8')) as { trajectory: string; source: string; constraints: string; divergences: Array<{ kind: string; seq: number; recorded: unknown[]; replayed: Array<{ effect: string; callId?: string }> }> };
    expect(report).toMatchObject({ trajectory: 't1.0.jsonl', source: 'validate', constraints: tighter });
    // This trajectory recorded no checks (recorded verdicts: none). At most 3 calls: rounds 1 and 2 make 2 and 3 calls
    // (no verdict, no divergence); round 3's call is the 4th, blocked — a divergence at round 3's model response (seq 3).
    const seqs = report.divergences.map((divergence) => divergence.seq);
    expect(seqs).not.toContain(1);
    expect(seqs).not.toContain(2);
    const third = report.divergences.find((divergence) => divergence.seq === 3)!;
    expect(third).toMatchObject({ kind: 'verdicts', recorded: [] });
    expect(third.replayed).toContainEqual(expect.objectContaining({ effect: 'block-call', callId: 'urban_forest_locator-0' }));
  });
});
