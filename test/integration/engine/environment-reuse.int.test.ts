import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultValidatorFactory } from '../../../src/engine/episode-defaults.ts';
import { runEpisode, type ModelFactory } from '../../../src/engine/run-episode.ts';
import { runSuite, trajectoryFile } from '../../../src/engine/run-suite.ts';
import { startMockToolsServer } from '../../../src/mcp/environments/mock-tools.ts';
import type { ServerFactory } from '../../../src/mcp/server-factory.ts';
import { readTrajectory } from '../../../src/schemas/read-trajectory.ts';
import type { TrajectoryEvent } from '../../../src/schemas/event.ts';
import { cctuTask, scriptedModel, testServerFactory } from '../../unit/engine/fixtures.ts';

// A suite reuses a finished episode's environment for the next episode of the same task, reset in between. The rule
// (src/engine/environment-pool.ts): the next episode plays as on newly started servers. A tool that keeps state in
// every place JavaScript allows (closure, global object, intrinsics) would show any state carried over.
const tools = [
  {
    name: 'count',
    description: 'counts its calls',
    parameters: { type: 'object', properties: {} },
    implementation: `
      let calls = 0;
      function run(args, world) {
        calls += 1;
        globalThis.seen = (globalThis.seen ?? 0) + 1;
        const polluted = ({}).polluted ?? null;
        Object.prototype.polluted = 'yes';
        return { calls, seen: globalThis.seen, polluted, world: world.name };
      }`,
  },
];
const task = cctuTask({ id: 'stateful', environment: { servers: [{ name: 'mock-tools', options: { world: { name: 'w' } } }] }, tools });
const play: ModelFactory = async () => scriptedModel([{ calls: [['count', {}]] }, { calls: [['count', {}]] }, { calls: [['count', {}]] }, { say: 'counted' }]);

/** A trajectory without what differs between any two runs (times, durations, the start record's repeat and path). */
function comparable(events: readonly TrajectoryEvent[]): unknown[] {
  return events
    .filter((event) => event.type !== 'episode-start')
    .map((event) => JSON.parse(JSON.stringify(event, (key, value: unknown) => (['time', 'durationMs', 'latencyMs'].includes(key) ? undefined : value))) as unknown);
}

/** The real mock-tools server factory, counting the servers it started and the ones closed. */
function countingMockTools(): { counts: { started: number; closed: number }; counting: ServerFactory } {
  const counts = { started: 0, closed: 0 };
  const counting: ServerFactory = async (ref, context) => {
    counts.started += 1;
    const server = await startMockToolsServer(ref, context);
    const previous = server.server.onclose;
    server.server.onclose = () => {
      counts.closed += 1;
      previous?.();
    };
    return server;
  };
  return { counts, counting };
}

describe('environment reuse in a suite', () => {
  it('every repeat played on the reused, reset environment has the trajectory of an episode on a newly started one', async () => {
    const fresh = await runEpisode({ task, model: play, createValidator: defaultValidatorFactory });
    expect(fresh.status).toBe('completed');
    const results = fresh.events.filter((event) => event.type === 'tool-result').map((event) => JSON.parse((event as { content: string }).content) as unknown);
    // On a new server the three calls count 1, 2, 3 and see a clean Object.prototype on the first.
    expect(results).toEqual([
      { calls: 1, seen: 1, polluted: null, world: 'w' },
      { calls: 2, seen: 2, polluted: 'yes', world: 'w' },
      { calls: 3, seen: 3, polluted: 'yes', world: 'w' },
    ]);

    const { counts, counting } = countingMockTools();
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'environment-reuse-'));
    const suite = await runSuite({
      tasks: [{ task, path: 'stateful.json' }],
      repeats: 4,
      concurrency: 1,
      modelSpec: 'test-scripted',
      createModel: play,
      outDir,
      environment: { servers: { 'mock-tools': counting } },
      createValidator: defaultValidatorFactory,
    });
    expect(suite.episodes.map((episode) => episode.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // One environment served the four repeats…
    expect(counts.started).toBe(1);
    // …and each repeat's trajectory is the fresh episode's.
    for (let repeat = 0; repeat < 4; repeat++) {
      const { events } = await readTrajectory(trajectoryFile(outDir, task.id, repeat));
      expect(comparable(events), `repeat ${repeat}`).toEqual(comparable(fresh.events));
    }
  });

  it('an environment whose episode ended in error is closed, not reused; servers without reset are never reused', async () => {
    const { counts, counting } = countingMockTools();
    let episode = 0;
    const failingFirst: ModelFactory = async () => (episode++ === 0 ? scriptedModel([{ calls: [['count', {}]] }, { throws: 'model down' }]) : scriptedModel([{ say: 'done' }]));
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'environment-reuse-error-'));
    const suite = await runSuite({ tasks: [{ task, path: 'stateful.json' }], repeats: 3, concurrency: 1, modelSpec: 'test-scripted', createModel: failingFirst, outDir, environment: { servers: { 'mock-tools': counting } } });
    expect(suite.episodes.map((entry) => entry.status)).toEqual(['error', 'completed', 'completed']);
    // The errored episode's environment was closed; the second started anew and served the third.
    expect(counts.started).toBe(2);
    expect(counts.closed).toBe(2);

    // A server with no reset (a plain McpServer) gets a new environment per episode.
    const ledger = { started: 0, closed: 0 };
    const plainDir = await mkdtemp(path.join(os.tmpdir(), 'environment-reuse-plain-'));
    const done: ModelFactory = async () => scriptedModel([{ calls: [['counter', {}]] }, { say: 'done' }]);
    await runSuite({ tasks: [{ task, path: 'stateful.json' }], repeats: 2, concurrency: 1, modelSpec: 'test-scripted', createModel: done, outDir: plainDir, environment: { servers: { 'mock-tools': testServerFactory(ledger) } } });
    expect(ledger).toEqual({ started: 2, closed: 2 });
  });

  it('keeps at most 16 idle environments: the least recently given back is closed first', async () => {
    const { counts, counting } = countingMockTools();
    // 18 tasks over 18 worlds: no two share an environment.
    const tasks = Array.from({ length: 18 }, (_, index) => ({ task: cctuTask({ id: `world-${index}`, environment: { servers: [{ name: 'mock-tools', options: { world: { name: `w${index}` } } }] }, tools }), path: `world-${index}.json` }));
    const closedWhenEnded: number[] = [];
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'environment-reuse-cap-'));
    await runSuite({ tasks, concurrency: 1, modelSpec: 'test-scripted', createModel: async () => scriptedModel([{ say: 'done' }]), outDir, environment: { servers: { 'mock-tools': counting } }, onEpisodeEnd: () => closedWhenEnded.push(counts.closed) });
    expect(counts.started).toBe(18);
    // The 17th and 18th given back each close the oldest idle one; the suite's end closes the other 16.
    expect(closedWhenEnded).toEqual([...Array(16).fill(0), 1, 2]);
    expect(counts.closed).toBe(18);
  });
});
