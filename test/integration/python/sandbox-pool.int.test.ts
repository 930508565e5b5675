import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PythonSandbox, disposeSandboxPool, takeFreshSandbox } from '../../../src/python-sandbox/index.ts';

// sandbox-pool.ts: sandboxes made ahead are handed out once and never taken back, so a taken sandbox is as fresh as
// one opened on demand — nothing an earlier user did is in it.

beforeAll(() => PythonSandbox.openSync().dispose(), 180_000);
afterAll(() => disposeSandboxPool());

const OPTIONS = { timeoutMs: 5_000 };
const waitForPool = () => new Promise((resolve) => setTimeout(resolve, 3_000));

describe('the pool of fresh Python sandboxes', () => {
  it('hands out a sandbox no one used: tampering in one taken earlier is not in the next', { timeout: 60_000 }, async () => {
    const first = takeFreshSandbox(OPTIONS);
    first.define('tamper', "import builtins, json\ndef go():\n    builtins.FORGED = 1\n    json.dumps = lambda *a, **k: '\"forged\"'\n    return True, ''\n");
    // The tampering took: its own sandbox's envelope (json.dumps) now answers "forged".
    expect(first.call('tamper', 'go', '[]', 'validator')).toMatchObject({ ok: false, error: expect.stringMatching(/not its envelope: "forged"/) });
    await waitForPool();
    const next = takeFreshSandbox(OPTIONS);
    try {
      // No unit of the earlier user is defined in it, and its builtins and json are the clean ones.
      expect(next.call('tamper', 'go', '[]', 'validator')).toMatchObject({ ok: false, kind: 'exception' });
      next.define('probe', "import builtins, json\ndef look():\n    return (not hasattr(builtins, 'FORGED')) and json.dumps([1]) == '[1]', 'tampered'\n");
      expect(next.call('probe', 'look', '[]', 'validator')).toEqual({ ok: true, value: '[true, ""]' });
      expect(next).not.toBe(first);
    } finally {
      first.dispose();
      next.dispose();
    }
  });

  it('a take never returns the same sandbox twice, and answers at once when one is ready', { timeout: 60_000 }, async () => {
    takeFreshSandbox(OPTIONS).dispose();
    await waitForPool();
    const started = performance.now();
    const taken = takeFreshSandbox(OPTIONS);
    const tookMs = performance.now() - started;
    const other = takeFreshSandbox(OPTIONS);
    try {
      expect(other).not.toBe(taken);
      // A restore is hundreds of milliseconds; a ready one is handed over without one.
      expect(tookMs).toBeLessThan(50);
    } finally {
      taken.dispose();
      other.dispose();
    }
  });
});
