// `npm run bench -- python`: the Python sandbox (Pyodide in an isolated-vm isolate).
// "Cold" here is a user's first sandbox after installing: a fresh process, no snapshot in its data directory, and what
// the install made present (`npm ci` runs `npm run build:python-stdlib`: Pyodide's standard library with bytecode,
// built once per install, not per run, so its build time is not in a start; `cold_stdlib_bytecode` says whether the
// runs had it: 1, or 0 when they fell back to the shipped source-only zip).
// - cold_start_ms: the first sandbox of a machine — a fresh process, no snapshot on disk: a full CPython boot and the
//   snapshot made, until the sandbox is handed back (the snapshot is then saved in the background). The median of
//   COLD_RUNS fresh processes, each with an empty data directory; `_min`/`_max` give the spread, `cold_stage_*_ms` the
//   stages of the median run, `snapshot_saved_after_ms` how long after the hand-back the file was in place;
//   `cold_start_cpu_ms` the median run's process CPU time (all threads) over the same span, steadier than the wall
//   time on a loaded machine;
// - restore_start_p50_ms: every later sandbox in a process (restored from the snapshot);
// - new_process_start_ms: the first sandbox of a new process when the snapshot is on disk (a user's second run);
// - suite_start_per_episode_ms: sandbox start time amortised over a 20-episode suite (one cold, 19 restored);
// - tool_call_p50_ms: a warm Python tool call through MCP (client → mock-tools server → sandbox → back);
// - validator_step_p50_ms: one final-answer step through CCTU-style Python validators (two regex checks), 500 steps
//   in one warm episode;
// - what a suite's runs see (SUITE_EPISODES episodes one after the other, each a fresh episode as `sandbox run` plays
//   it: its validators' sandboxes opened at the episode's start, then ANSWERS_PER_EPISODE final answers, every one a
//   call of each validator; timed from outside, through PythonStepValidator.checkSync, one validator per call):
//   validator_open_ms_p50/_p99 (one validator's sandbox opened, restored from the snapshot, its source defined),
//   validator_call_ms_p50/_p99 (every call of the suite, first calls included), first_call_ms_p50/_p99 (each
//   validator's first call of its episode, right after opening), episode_python_overhead_ms (median per episode of
//   the opens and all calls); the same figures with `_model_300ms`: the episodes' model takes 300 ms per answer
//   (idle time, as while a run waits on its model), in which the sandboxes made ahead (sandbox-pool.ts) get ready;
// - memory_per_sandbox_mb: RSS growth per extra live sandbox (4 extra held open at once).
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../../mcp-servers/mock-tools/create-server.ts';
import { connectServer } from '../../src/mcp/connect-server.ts';
import { PythonSandbox, sandboxStarts } from '../../src/python-sandbox/index.ts';
import { ConstraintSchema } from '../../src/schemas/constraint.ts';
import type { MockTool } from '../../src/schemas/cctu-task.ts';
import { PythonStepValidator, type PythonConstraint } from '../../src/validator/python-step-validator.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const COLD_RUNS = 3;
const SANDBOX_MODULE = JSON.stringify(path.join(REPO_ROOT, 'src/python-sandbox/index.ts'));

interface ColdRun {
  ms: number;
  cpuMs: number;
  savedAfterMs: number;
  stages: Record<string, number>;
  stdlib: 'bytecode' | 'source';
}

/** One fresh process on an empty data directory: its first sandbox, timed from the call to the hand-back. */
function coldRun(dataDir: string): ColdRun {
  const script = `import { PythonSandbox, sandboxStarts } from ${SANDBOX_MODULE};
const started = performance.now();
const cpu = process.cpuUsage();
const sandbox = PythonSandbox.openSync();
const ms = performance.now() - started;
const { user, system } = process.cpuUsage(cpu);
const cpuMs = (user + system) / 1000;
const handedBack = performance.now();
await PythonSandbox.snapshotSaved();
const savedAfterMs = performance.now() - handedBack;
sandbox.dispose();
process.stdout.write(JSON.stringify({ ms, cpuMs, savedAfterMs, stages: sandboxStarts.lastFullStagesMs, stdlib: sandboxStarts.stdlib }));`;
  const output = execFileSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, SANDBOX_DATA_DIR: dataDir },
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(output) as ColdRun;
}

const TOOL: MockTool = {
  name: 'historical_event_retriever',
  description: 'events of a year',
  parameters: { type: 'object', properties: { year: { type: 'integer' } }, required: ['year'] },
  implementation: `EVENTS = {1969: ["Apollo 11 lands on the Moon", "Woodstock"], 1989: ["Fall of the Berlin Wall"]}


def historical_event_retriever(year):
    return {"year": year, "events": EVENTS.get(year, [])}
`,
  language: 'python',
};

const VALIDATORS = `import re
from typing import Tuple


def validate_punctuation(response: str) -> Tuple[bool, str]:
    if response.rstrip().endswith('.'):
        return True, 'ok'
    return False, 'The response must end with a period.'


def validate_identifiers(response: str) -> Tuple[bool, str]:
    if re.search(r"Total Casualties:\\s*(?:\\d{1,3}(?:,\\d{3})*|\\d+)\\b", response):
        return True, 'ok'
    return False, "Include 'Total Casualties:' followed by the number."
`;

async function toolCallP50(): Promise<number> {
  const connection = await connectServer('mock-tools', { kind: 'in-memory', server: createServer({ tools: [TOOL], world: {} }) });
  try {
    const options = { timeoutMs: 10_000, maxBytes: 64 * 1024 };
    await connection.callTool(TOOL.name, { year: 1969 }, options); // opens the sandbox: the calls below are warm
    const samples: number[] = [];
    for (let index = 0; index < 300; index++) {
      const started = performance.now();
      await connection.callTool(TOOL.name, { year: 1969 + (index % 30) }, options);
      samples.push(performance.now() - started);
    }
    return median(samples);
  } finally {
    await connection.close();
  }
}

function validatorStepP50(): number {
  const constraints = ['validate_punctuation', 'validate_identifiers'].map(
    (fn, index) => ConstraintSchema.parse({ id: `v${index}`, category: 'python', params: { name: fn, source: VALIDATORS, function: fn } }) as PythonConstraint,
  );
  const validator = new PythonStepValidator(constraints);
  validator.prepare();
  try {
    const samples: number[] = [];
    for (let index = 0; index < 500; index++) {
      const started = performance.now();
      validator.checkSync({ kind: 'final-answer', round: 3, content: index % 2 === 0 ? 'Total Casualties: 2,150.' : 'About two thousand' });
      samples.push(performance.now() - started);
    }
    return median(samples);
  } finally {
    validator.dispose();
  }
}

const SUITE_EPISODES = 20;
/** A model's time per answer in the second suite figures: well under an LLM's (seconds), a scripted model's is ~0. */
const MODEL_MS = 300;
const ANSWERS_PER_EPISODE = 3;
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

/**
 * A suite's fresh episodes, as runs play them: see the header. `modelMs`: the time the model takes per answer, spent
 * awaiting (the event loop idle, as while a run waits on its model); 0 plays the episodes back to back, as a
 * scripted model does, so sandboxes made ahead (sandbox-pool.ts) cannot keep up and most opens are restores on the
 * episode's path.
 */
async function suiteValidatorFigures(modelMs: number, suffix: string): Promise<Record<string, number>> {
  const opens: number[] = [];
  const calls: number[] = [];
  const firsts: number[] = [];
  const episodes: number[] = [];
  const answers = ['Total Casualties: 2,150.', 'About two thousand', 'Total Casualties: 7 in all.'];
  for (let episode = 0; episode < SUITE_EPISODES; episode++) {
    let overhead = 0;
    const validators = ['validate_punctuation', 'validate_identifiers'].map((fn, index) => {
      const constraint = ConstraintSchema.parse({ id: `v${index}`, category: 'python', params: { name: fn, source: VALIDATORS, function: fn } }) as PythonConstraint;
      const validator = new PythonStepValidator([constraint]);
      const started = performance.now();
      validator.prepare();
      const ms = performance.now() - started;
      opens.push(ms);
      overhead += ms;
      return validator;
    });
    for (let turn = 0; turn < ANSWERS_PER_EPISODE; turn++) {
      if (modelMs > 0) await new Promise((resolve) => setTimeout(resolve, modelMs));
      for (const validator of validators) {
        const started = performance.now();
        validator.checkSync({ kind: 'final-answer', round: turn + 1, content: answers[(episode + turn) % answers.length]! });
        const ms = performance.now() - started;
        calls.push(ms);
        if (turn === 0) firsts.push(ms);
        overhead += ms;
      }
    }
    for (const validator of validators) validator.dispose();
    episodes.push(overhead);
  }
  return {
    [`validator_open_ms_p50${suffix}`]: quantile(opens, 0.5),
    [`validator_open_ms_p99${suffix}`]: quantile(opens, 0.99),
    [`validator_call_ms_p50${suffix}`]: quantile(calls, 0.5),
    [`validator_call_ms_p99${suffix}`]: quantile(calls, 0.99),
    [`first_call_ms_p50${suffix}`]: quantile(firsts, 0.5),
    [`first_call_ms_p99${suffix}`]: quantile(firsts, 0.99),
    [`episode_python_overhead_ms${suffix}`]: median(episodes),
  };
}

function rssMb(): number {
  globalThis.gc?.();
  return process.memoryUsage().rss / (1024 * 1024);
}

export async function run(): Promise<Record<string, number>> {
  const load = os.loadavg()[0]!;
  // Cold: fresh processes, each on a data directory of its own with no snapshot, as on a fresh machine.
  const colds: Array<ColdRun & { dataDir: string }> = [];
  for (let run = 0; run < COLD_RUNS; run++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'python-bench-'));
    colds.push({ ...coldRun(dataDir), dataDir });
  }
  const coldMedian = [...colds].sort((a, b) => a.ms - b.ms)[Math.floor(colds.length / 2)]!;
  const cold = coldMedian.ms;

  // This process finds the snapshot the cold runs left on disk: its first sandbox is a new process's start.
  process.env.SANDBOX_DATA_DIR = coldMedian.dataDir;
  let started = performance.now();
  const first = PythonSandbox.openSync();
  const newProcess = performance.now() - started;
  const restores: number[] = [];
  const restoreStages: Array<Record<string, number>> = [];
  for (let index = 0; index < 8; index++) {
    started = performance.now();
    PythonSandbox.openSync().dispose();
    restores.push(performance.now() - started);
    restoreStages.push({ ...sandboxStarts.lastRestoreStagesMs! });
  }
  const restore = median(restores);

  const before = rssMb();
  const held = Array.from({ length: 4 }, () => PythonSandbox.openSync());
  for (const sandbox of held) sandbox.define('probe', 'def f():\n    return 1\n');
  const memory = (rssMb() - before) / held.length;
  for (const sandbox of [first, ...held]) sandbox.dispose();

  return {
    load_average_1m: Number(load.toFixed(2)),
    cold_start_ms: cold,
    cold_start_min_ms: Math.min(...colds.map((run) => run.ms)),
    cold_start_max_ms: Math.max(...colds.map((run) => run.ms)),
    cold_start_cpu_ms: coldMedian.cpuMs,
    cold_stdlib_bytecode: colds.every((run) => run.stdlib === 'bytecode') ? 1 : 0,
    ...Object.fromEntries(Object.entries(coldMedian.stages).map(([stage, ms]) => [`cold_stage_${stage}_ms`, ms])),
    snapshot_saved_after_ms: coldMedian.savedAfterMs,
    restore_start_p50_ms: restore,
    // the stages of a restore, medians of the 8 (host clock): isolate made and Pyodide's JS compiled; loadPyodide from
    // the snapshot (instantiate the shared module, Emscripten's start, the memory restored, Pyodide's bootstrap); prelude
    ...Object.fromEntries(['isolate', 'pyodide', 'prelude'].map((stage) => [`restore_stage_${stage}_ms`, median(restoreStages.map((stages) => stages[stage]!))])),
    new_process_start_ms: newProcess,
    suite_start_per_episode_ms: (cold + 19 * restore) / 20,
    tool_call_p50_ms: await toolCallP50(),
    validator_step_p50_ms: validatorStepP50(),
    ...(await suiteValidatorFigures(0, '')),
    ...(await suiteValidatorFigures(MODEL_MS, `_model_${MODEL_MS}ms`)),
    memory_per_sandbox_mb: memory,
  };
}
