import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/engine/run-episode.ts';
import type { ServerFactory } from '../../../src/mcp/server-factory.ts';
import type { EventOf, TrajectoryEvent } from '../../../src/schemas/event.ts';
import type { StepValidator } from '../../../src/validator/step-validator.ts';
import { cctuTask, scriptedModel, testServerFactory, type ServerLedger } from '../../unit/engine/fixtures.ts';

const ofType = <T extends TrajectoryEvent['type']>(events: readonly TrajectoryEvent[], type: T) => events.filter((event): event is EventOf<T> => event.type === type);

function setup() {
  const ledger: ServerLedger = { started: 0, closed: 0 };
  return { ledger, environment: { servers: { 'mock-tools': testServerFactory(ledger) } } };
}

describe('every exit path closes the connections', () => {
  it('completed', async () => {
    const { ledger, environment } = setup();
    const result = await runEpisode({ task: cctuTask(), model: scriptedModel([{ calls: [['lookup', { key: 'a' }]] }, { say: 'alpha' }]), environment });
    expect(result.status).toBe('completed');
    expect(ledger).toMatchObject({ started: 1, closed: 1 });
  });

  it('model error', async () => {
    const { ledger, environment } = setup();
    const result = await runEpisode({ task: cctuTask(), model: scriptedModel([{ throws: 'provider down after 3 attempts' }]), environment });
    expect(result).toMatchObject({ status: 'error', reason: 'model failed: provider down after 3 attempts', errorCode: 'model-error' });
    // the failure is recorded as data in episode-end (src/schemas/event.ts), not only in the reason's words
    expect(result.events.at(-1)).toMatchObject({ type: 'episode-end', status: 'error', errorCode: 'model-error' });
    expect(ledger).toMatchObject({ started: 1, closed: 1 });
  });

  it('wall-time limit while a tool runs', async () => {
    const { ledger, environment } = setup();
    const task = cctuTask({ limits: { wallTimeMs: 300, toolTimeoutMs: 5_000 } });
    const result = await runEpisode({ task, model: scriptedModel([{ calls: [['slow', { ms: 1_000 }]] }, { say: 'done' }]), environment });
    expect(result).toMatchObject({ status: 'limit', reason: 'wall-time limit reached (300 ms)' });
    expect(ledger).toMatchObject({ started: 1, closed: 1 });
  });

  it('a validator that throws (harness failure) ends the episode in error', async () => {
    const { ledger, environment } = setup();
    let disposed = 0;
    const validator: StepValidator = {
      check: async () => {
        throw new Error('isolate crashed');
      },
      dispose: () => void disposed++,
    };
    const result = await runEpisode({ task: cctuTask(), model: scriptedModel([{ say: 'x' }]), environment, createValidator: async () => validator });
    expect(result.status).toBe('error');
    expect(result.reason).toMatch(/isolate crashed/);
    // a check that throws breaks StepValidator's contract (failures are `error` verdicts): a bug, `internal`
    // (src/sandbox-error.ts); a constraint's own failure is the `error` verdict of the next test
    expect(result.events.at(-1)).toMatchObject({ type: 'episode-end', errorCode: 'internal' });
    expect(disposed).toBe(1);
    expect(ledger).toMatchObject({ started: 1, closed: 1 });
    expect(result.events.at(-1)!.type).toBe('episode-end');
  });

  it("a constraint's code that fails (an error verdict) ends the episode in error with errorCode validator-error", async () => {
    const { environment } = setup();
    const validator: StepValidator = {
      check: async () => [{ constraintId: 'c1', category: 'response.length', effect: 'error', message: 'timed out' }],
      dispose: () => undefined,
    };
    const result = await runEpisode({ task: cctuTask(), model: scriptedModel([{ say: 'x' }]), environment, createValidator: async () => validator });
    expect(result).toMatchObject({ status: 'error', errorCode: 'validator-error' });
    expect(result.events.at(-1)).toMatchObject({ type: 'episode-end', status: 'error', reason: 'constraint check failed: c1 (response.length): timed out', errorCode: 'validator-error' });
  });

  it('a second server that fails to start: the first is closed and the episode ends in error with a complete trajectory', async () => {
    const ledger: ServerLedger = { started: 0, closed: 0 };
    const broken: ServerFactory = async () => {
      throw new Error('database missing');
    };
    const task = cctuTask({ environment: { servers: [{ name: 'mock-tools' }, { name: 'sql' }] } });
    const result = await runEpisode({ task, model: scriptedModel([{ say: 'x' }]), environment: { servers: { 'mock-tools': testServerFactory(ledger), sql: broken } } });
    expect(result.status).toBe('error');
    expect(result.reason).toMatch(/server-error: the sql server failed to start: database missing/);
    expect(result.events.at(-1)).toMatchObject({ type: 'episode-end', errorCode: 'server-error' });
    expect(ledger).toMatchObject({ started: 1, closed: 1 });
    expect(result.events.map((event) => event.type)).toEqual(['episode-start', 'episode-end']);
  });
});

describe('limits and tool results', () => {
  it('a slow tool times out as an error result the agent reads; the episode goes on', async () => {
    const { environment } = setup();
    const task = cctuTask({ limits: { toolTimeoutMs: 100 } });
    const result = await runEpisode({ task, model: scriptedModel([{ calls: [['slow', { ms: 2_000 }], ['counter', {}]] }, { say: 'ok' }]), environment });
    const results = ofType(result.events, 'tool-result');
    expect(results[0]).toMatchObject({ isError: true, content: 'Tool slow timed out after 100 ms.' });
    expect(results[1]).toMatchObject({ isError: false, content: '1' });
    expect(result.status).toBe('completed');
  });

  it('caps what the agent reads by bytes; bad JSON arguments and unknown tools are error results', async () => {
    const { environment } = setup();
    const result = await runEpisode({
      task: cctuTask(),
      model: scriptedModel([{ calls: [['big', { bytes: 100_000 }], ['lookup', '{"key": '], ['nope', {}]] }, { say: 'ok' }]),
      environment: { ...environment, maxResultBytes: 1_000 },
    });
    const [big, badJson, unknown] = ofType(result.events, 'tool-result');
    expect(Buffer.byteLength(big!.content)).toBeLessThanOrEqual(1_000);
    expect(big!.content).toMatch(/\[truncated: showing 1000 of 100000 bytes\]$/);
    expect(badJson).toMatchObject({ isError: true, content: expect.stringMatching(/not valid JSON/) });
    expect(unknown).toMatchObject({ isError: true, content: expect.stringMatching(/^Unknown tool "nope"/) });
  });

  it('round, tool-call and token limits end the episode with status limit and the reason', async () => {
    const { environment } = setup();
    const loop = scriptedModel([{ calls: [['counter', {}]] }], { repeatLast: true });
    expect(await runEpisode({ task: cctuTask({ limits: { maxRounds: 3 } }), model: loop, environment })).toMatchObject({ status: 'limit', reason: 'round limit reached (3 rounds)' });
    const many = scriptedModel([{ calls: [['counter', {}], ['counter', {}]] }], { repeatLast: true });
    expect(await runEpisode({ task: cctuTask({ limits: { maxToolCalls: 5 } }), model: many, environment })).toMatchObject({ status: 'limit', reason: 'tool-call limit reached (5 calls)' });
    const tokens = scriptedModel([{ calls: [['counter', {}]] }], { repeatLast: true });
    expect(await runEpisode({ task: cctuTask({ limits: { maxTokens: 40 } }), model: tokens, environment })).toMatchObject({ status: 'limit', reason: 'token limit reached (45 > 40)' });
  });

  it('all approved calls of one message run concurrently', async () => {
    const { ledger, environment } = setup();
    await runEpisode({ task: cctuTask(), model: scriptedModel([{ calls: [['slow', { ms: 100 }], ['slow', { ms: 100 }], ['slow', { ms: 100 }]] }, { say: 'ok' }]), environment });
    expect(ledger.maxInFlight).toBe(3);
  });
});
