import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPythonToolRuntime } from '../../../mcp-servers/mock-tools/python-tool-runtime.ts';
import { PythonSandbox, sandboxStarts } from '../../../src/python-sandbox/index.ts';
import type { MockTool } from '../../../src/schemas/cctu-task.ts';
import type { Verdict } from '../../../src/schemas/step.ts';
import { createStepValidator, disposeIsolatePool, revalidate } from '../../../src/validator/index.ts';
import { TOOLS, answer, constraint } from '../../unit/validator/fixtures.ts';

// Hostile Python, in both places the sandbox runs it: as a CCTU tool (a contained attack is a tool error the agent
// reads, isError true) and as a CCTU response validator (an `error` verdict, never a silent pass). The rule: Python
// reaches no host file, process, network or JavaScript, its limits hold, and nothing it does changes the host or
// another episode.

// On a machine without the snapshot yet, the first sandbox boots CPython (seconds under load): do it here, not in a test.
beforeAll(() => PythonSandbox.openSync().dispose(), 180_000);
afterAll(() => disposeIsolatePool());

const HOST_FILE = '/tmp/agent-sandbox-python-escape-probe';

/**
 * Tool bodies (the function is named `attack`, called with no arguments) and what the error must say: CCTU's text for
 * a tool that raises is `an error occured when call <name>: <str(e)>` (utils/utils.py, get_feedback_tools), so the
 * exception's own message, without its type's name.
 */
const ATTACKS: Array<[string, string, RegExp]> = [
  ['reads /etc/passwd', "return open('/etc/passwd').read()", /: \[Errno 44\] No such file or directory: '\/etc\/passwd'$/],
  ['writes a file', `open(${JSON.stringify(HOST_FILE)}, 'w').write('escaped')\n    return 'written'`, /: \[Errno 2\] Permission denied/],
  ['writes in its working directory', "open('notes.txt', 'w').write('x')\n    return 'written'", /: \[Errno 2\] Permission denied/],
  ['runs os.system', "import os\n    return os.system('touch " + HOST_FILE + "')", /: os\.system is not available/],
  ['starts a subprocess', "import subprocess\n    return subprocess.run(['ls'])", /: module 'subprocess'/],
  ['opens a socket', "import socket\n    return socket.create_connection(('127.0.0.1', 22))", /: module 'socket'/],
  ['imports js', 'import js\n    return str(js.process)', /: module 'js'/],
  ['calls pyodide.code.run_js', "from pyodide.code import run_js\n    return run_js('globalThis')", /: module 'pyodide/],
  ['imports pyodide_js', 'import pyodide_js\n    return str(pyodide_js)', /: module 'pyodide_js'/],
  ['reaches js through sys.modules', "import sys\n    return str(sys.modules['js'].process)", /^an error occured when call attack_\d+: 'js'$/],
  ['loads ctypes', "import ctypes\n    return ctypes.CDLL(None).system(b'true')", /: module 'ctypes'/],
  ['recurses without end', 'def down(n):\n        return down(n + 1)\n    return down(0)', /: maximum recursion depth exceeded$/],
  ['allocates without end', 'hoard = []\n    while True:\n        hoard.append(bytearray(1 << 20))', /ran out of memory/],
  ['allocates one huge string', "return 'x' * (1 << 30)", /ran out of memory/],
];

function tool(body: string): MockTool {
  return { name: 'attack', description: 'hostile', parameters: { type: 'object', properties: {} }, implementation: `def attack():\n    ${body}\n`, language: 'python' };
}

const HEALTHY: MockTool = {
  name: 'add',
  description: 'adds',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  implementation: 'def add(a, b):\n    return {"sum": a + b}\n',
  language: 'python',
};

describe('hostile Python tools are contained as tool errors', () => {
  const runtime = createPythonToolRuntime({ tools: [HEALTHY, ...ATTACKS.map(([, body], index) => ({ ...tool(body), name: `attack_${index}`, implementation: tool(body).implementation.replace('def attack', `def attack_${index}`) }))], timeoutMs: 3_000 });
  afterAll(() => runtime.dispose());

  for (const [index, [name, , expected]] of ATTACKS.entries()) {
    it(`${name}: an error outcome, and the next call of a healthy tool still works`, async () => {
      const outcome = await runtime.call(`attack_${index}`, {});
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toMatch(expected);
      // CCTU's text for a dict result is json.dumps(..., ensure_ascii=False): {"sum": 5}
      expect(await runtime.call('add', { a: 2, b: 3 })).toEqual({ text: '{"sum": 5}', isError: false });
      expect(existsSync(HOST_FILE)).toBe(false);
    });
  }

  it('an infinite loop times out, the sandbox is replaced, and the next call works', async () => {
    const looping = createPythonToolRuntime({ tools: [HEALTHY, { ...tool('while True:\n        pass'), name: 'attack' }], timeoutMs: 1_000 });
    try {
      expect(await looping.call('attack', {})).toEqual({ text: 'Error: attack timed out after 1000 ms.', isError: true });
      expect(await looping.call('add', { a: 1, b: 1 })).toEqual({ text: '{"sum": 2}', isError: false });
    } finally {
      looping.dispose();
    }
  });

  it('randomness and the clock are the same on every run: re-running a tool gives the same text', async () => {
    const source = tool("import random, time, uuid, os\n    return [random.random(), random.randint(1, 10**9), time.time(), str(uuid.uuid4()), os.urandom(4).hex()]");
    const first = createPythonToolRuntime({ tools: [source] });
    const second = createPythonToolRuntime({ tools: [source] });
    try {
      const a = await first.call('attack', {});
      const b = await second.call('attack', {});
      expect(a.isError).toBe(false);
      expect(b).toEqual(a);
      // the frozen clock: 2026-01-01T00:00:00Z
      expect(JSON.parse(a.text)[2]).toBe(Date.UTC(2026, 0, 1) / 1000);
    } finally {
      first.dispose();
      second.dispose();
    }
  });

  it('state one sandbox changes is not seen by another restored from the same shared snapshot', async () => {
    // Sandboxes share one copy of the snapshot (a SharedArrayBuffer) and of the Pyodide files: a sandbox that
    // changes its interpreter (a stdlib module patched, 8 MB of memory written) must change its own WASM memory only.
    const source = tool("import string\n    before = getattr(string, 'mark', None)\n    string.mark = 'tampered'\n    hoard = bytearray(b'\\xff' * (8 << 20))\n    return [before, string.mark, len(hoard)]");
    const tamperer = createPythonToolRuntime({ tools: [source] });
    const other = createPythonToolRuntime({ tools: [source] });
    try {
      expect(await tamperer.call('attack', {})).toEqual({ text: `[null, "tampered", ${8 << 20}]`, isError: false });
      expect(await other.call('attack', {})).toEqual({ text: `[null, "tampered", ${8 << 20}]`, isError: false });
    } finally {
      tamperer.dispose();
      other.dispose();
    }
  });

  it('opens its sandbox when the runtime is made, so the start is not charged to the first call', async () => {
    const before = sandboxStarts.full + sandboxStarts.restored;
    const runtime = createPythonToolRuntime({ tools: [HEALTHY] });
    try {
      // open() waits one turn of the event loop, then boots synchronously: two turns later the sandbox is up.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(sandboxStarts.full + sandboxStarts.restored).toBe(before + 1);
      expect(await runtime.call('add', { a: 1, b: 2 })).toEqual({ text: '{"sum": 3}', isError: false });
      expect(sandboxStarts.full + sandboxStarts.restored).toBe(before + 1);
    } finally {
      runtime.dispose();
    }
  });
});

describe('hostile Python validators give error verdicts', () => {
  const limit = constraint('length', 'response.length', { max: 5, unit: 'words' });
  const python = (id: string, body: string) =>
    constraint(id, 'python', { name: `${id} check`, function: 'validate_format', source: `def validate_format(response):\n    ${body}\n` });

  async function verdictsOf(body: string, text = 'Hello there.'): Promise<Verdict[]> {
    const validator = await createStepValidator([python('evil', body), limit], TOOLS, { python: { timeoutMs: 1_000 } });
    try {
      return await validator.check(answer(1, text));
    } finally {
      validator.dispose();
    }
  }

  it.each([
    ['reads a host file', "open('/etc/passwd').read()\n    return (True, 'ok')", /FileNotFoundError/],
    ['escapes through js', "import js\n    return (True, 'ok')", /: module 'js'/],
    ['loops forever', 'while True:\n        pass', /timed out/],
    // CCTU's `ok, msg = call_validator(...)` (handlers/response.py) raises on 'fine': too many values to unpack.
    ['returns the wrong shape', "return 'fine'", /ValueError: too many values to unpack \(expected 2\)/],
    ['raises', "raise ValueError('boom')", /ValueError: boom/],
  ])('%s: one error verdict; the length constraint beside it is unaffected', async (_name, body, detail) => {
    const verdicts = await verdictsOf(body, 'one two three four five six seven');
    expect(verdicts).toEqual([
      { constraintId: 'evil', category: 'python', effect: 'error', message: expect.stringMatching(detail) },
      // response.length: 7 words > max 5 → rejected, exactly as without the hostile constraint
      expect.objectContaining({ constraintId: 'length', effect: 'reject-answer' }),
    ]);
  });

  it('a validator reading random and time gives the same verdict when the trajectory is re-validated', () => {
    const body = "import random, time\n    return (random.random() < 0.5 and time.time() > 0, 'coin %f' % random.random())";
    const constraints = [python('coin', body)];
    const steps = [answer(1, 'a'), answer(2, 'b')];
    const first = revalidate(constraints, TOOLS, steps);
    const second = revalidate(constraints, TOOLS, steps);
    expect(second).toEqual(first);
  });
});
