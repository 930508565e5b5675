import { afterEach, describe, expect, it, vi } from 'vitest';
import { createToolRuntime, disposeIdleToolIsolates, idleToolIsolates } from '../../../mcp-servers/mock-tools/index.ts';
import type { MockTool } from '../../../src/schemas/cctu-task.ts';

// A mock tool may keep state where JavaScript lets it: in its closure, on the global object, in the intrinsics.
// The runtime reuses isolates (an isolate costs milliseconds, a context much less), so each of those places must
// start empty again for the next runtime, and after `reset()` (an environment reused by the next episode).
const stateful: MockTool = {
  name: 'count',
  description: 'counts its calls in every place a tool can keep state',
  parameters: { type: 'object', properties: {} },
  implementation: `
    let calls = 0;
    function run(args, world) {
      calls += 1;
      globalThis.globalCalls = (globalThis.globalCalls ?? 0) + 1;
      const polluted = ({}).polluted ?? null;
      const push = [].push(1);
      Object.prototype.polluted = 'by an earlier call';
      Array.prototype.push = function () { return 'hijacked'; };
      return { calls, globalCalls: globalThis.globalCalls, polluted, push, world: world.name };
    }`,
};
// What a fresh isolate answers on the first call, and on the second (the rule: state lives until the runtime ends).
const FIRST = { calls: 1, globalCalls: 1, polluted: null, push: 1, world: 'w' };
const SECOND = { calls: 2, globalCalls: 2, polluted: 'by an earlier call', push: 'hijacked', world: 'w' };

const LIMIT_MB = 24;

afterEach(() => disposeIdleToolIsolates());

async function call(runtime: ReturnType<typeof createToolRuntime>): Promise<unknown> {
  const outcome = await runtime.call('count', {});
  expect(outcome.isError, outcome.text).toBe(false);
  return JSON.parse(outcome.text);
}

describe('mock-tools runtime reuse', () => {
  it('a runtime made on a reused isolate starts as on a new one: no closure, global or intrinsic state of the last', async () => {
    const first = createToolRuntime({ tools: [stateful], world: { name: 'w' }, memoryLimitMb: LIMIT_MB });
    expect(await call(first)).toEqual(FIRST);
    expect(await call(first)).toEqual(SECOND);
    first.dispose();
    expect(idleToolIsolates(LIMIT_MB)).toBe(1);
    const second = createToolRuntime({ tools: [stateful], world: { name: 'w' }, memoryLimitMb: LIMIT_MB });
    expect(await call(second)).toEqual(FIRST);
    // It runs on the isolate the first one gave back.
    expect(idleToolIsolates(LIMIT_MB)).toBe(0);
    second.dispose();
  });

  it('reset() makes the next call run as the first call of a new runtime', async () => {
    const runtime = createToolRuntime({ tools: [stateful], world: { name: 'w' }, memoryLimitMb: LIMIT_MB });
    expect(await call(runtime)).toEqual(FIRST);
    expect(await call(runtime)).toEqual(SECOND);
    runtime.reset();
    expect(await call(runtime)).toEqual(FIRST);
    expect(await call(runtime)).toEqual(SECOND);
    runtime.dispose();
  });

  it('the context a reset builds ahead is fresh however the next calls come: at once, side by side, after another reset, or never', async () => {
    const runtime = createToolRuntime({ tools: [stateful], world: { name: 'w' }, memoryLimitMb: LIMIT_MB });
    expect(await call(runtime)).toEqual(FIRST);
    // Calls made while the next context is still being built share it: one of them is the first call, one the second.
    runtime.reset();
    const both = (await Promise.all([call(runtime), call(runtime)])) as Array<{ calls: number }>;
    expect(both.map((result) => result.calls).sort()).toEqual([1, 2]);
    // A reset while a reset's context is being built drops that one: the next call still starts from nothing.
    runtime.reset();
    runtime.reset();
    expect(await call(runtime)).toEqual(FIRST);
    // Disposed while a context is being built: the isolate goes back to the idle ones once the build has released
    // that context (before, nothing of it may count toward the next runtime's memory limit), and serves a new runtime.
    runtime.reset();
    runtime.dispose();
    expect(idleToolIsolates(LIMIT_MB)).toBe(0);
    await vi.waitFor(() => expect(idleToolIsolates(LIMIT_MB)).toBe(1));
    const next = createToolRuntime({ tools: [stateful], world: { name: 'w' }, memoryLimitMb: LIMIT_MB });
    expect(await call(next)).toEqual(FIRST);
    next.dispose();
  });

  it('finished contexts stop counting toward the isolate memory limit: 20 contexts of a ~3 MB world fit in a 24 MB isolate', async () => {
    // 20 contexts each holding their own copy of the world need far more than 24 MB unless finished ones are freed.
    const world = { name: 'w', rows: Array.from({ length: 30_000 }, (_, index) => `row ${index} ${'x'.repeat(80)}`) };
    const size: MockTool = { name: 'count', description: 'rows', parameters: { type: 'object', properties: {} }, implementation: 'function run(args, world) { return world.rows.length; }' };
    for (let cycle = 0; cycle < 10; cycle++) {
      const runtime = createToolRuntime({ tools: [size], world, memoryLimitMb: LIMIT_MB });
      for (let episode = 0; episode < 2; episode++) {
        const outcome = await runtime.call('count', {});
        expect(outcome, `cycle ${cycle}, episode ${episode}`).toEqual({ text: '30000', isError: false });
        runtime.reset();
      }
      runtime.dispose();
    }
    expect(idleToolIsolates(LIMIT_MB)).toBe(1);
  });
});
