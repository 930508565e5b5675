// Two `sandbox run`s started at the same moment into one --out, 20 trials (issue 33): corrupt trajectories (a line
// that does not parse, not exactly one episode-start, no episode-end) and duplicated episodes (episodes run by both
// beyond the suite's 6) — both must be 0 — and how often the second was refused (exit 4) rather than finding the
// first already done and keeping its episodes.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../src/data-dir.ts';

const TRIALS = 20;
const EPISODES = 6;
const ARGS = ['run', '--suite', 'episodes/cctu', '--tasks', 'cctu2-sh-00[1-6]', '--model', 'reference', '--concurrency', '2'];

function runInto(out: string): Promise<{ status: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--', path.join(REPO_ROOT, 'bin/sandbox.js'), ...ARGS, '--out', out], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout })));
}

async function corrupt(out: string): Promise<number> {
  let count = 0;
  for (const name of (await readdir(out)).filter((entry) => entry.endsWith('.jsonl'))) {
    try {
      const events = (await readFile(path.join(out, name), 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string });
      if (events.filter((event) => event.type === 'episode-start').length !== 1 || events.at(-1)!.type !== 'episode-end') count += 1;
    } catch {
      count += 1;
    }
  }
  return count;
}

export async function run(): Promise<Record<string, number>> {
  let corruptTrajectories = 0;
  let duplicated = 0;
  let refused = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), 'race-bench-')), 'R');
    const results = await Promise.all([runInto(out), runInto(out)]);
    const ran = results.reduce((sum, result) => sum + Number(/^(\d+) episodes run/.exec(result.stdout)?.[1] ?? 0), 0);
    duplicated += Math.max(0, ran - EPISODES);
    refused += results.filter((result) => result.status === 4).length;
    corruptTrajectories += await corrupt(out);
  }
  return { racing_runs_trials: TRIALS, racing_runs_corrupt_trajectories: corruptTrajectories, racing_runs_duplicated_episodes: duplicated, racing_runs_second_refused: refused };
}
