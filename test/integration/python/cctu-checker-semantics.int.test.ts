import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../../mcp-servers/mock-tools/create-server.ts';
import { createPythonToolRuntime } from '../../../mcp-servers/mock-tools/python-tool-runtime.ts';
import { connectServer } from '../../../src/mcp/connect-server.ts';
import { PythonSandbox } from '../../../src/python-sandbox/index.ts';
import type { MockTool } from '../../../src/schemas/cctu-task.ts';
import { PythonStepValidator, type PythonConstraint } from '../../../src/validator/python-step-validator.ts';
import { answer, constraint } from '../../unit/validator/fixtures.ts';

// What CCTU's Python sees, and what its checker makes of it — each expected value below is read off github
// Junjie-Ye/CCTU's code (the function is named at each test), not off what this code printed:
// - a response validator's result is read by handlers/response.py as `ok, msg = call_validator(...)` then
//   `if not ok: fb.add_user(f"INSTRUCTION FOLLOWING ERROR: FORMAT NOT FOLLOWED! {msg}")`, and feedback.py's
//   add_user strips the message;
// - a validator's file is imported once per process (validator_loader.py, load_validator_func under lru_cache);
// - a tool runs as utils/utils.py's call_function (fresh namespace, `type(predict) == dict or list` as JSON, else
//   str()), its arguments are `json.loads(tool_call['function']['arguments'])`, and an exception is answered
//   f"an error occured when call {name}: {str(e)}" (get_feedback_tools).

beforeAll(() => PythonSandbox.openSync().dispose(), 180_000);

const FORMAT = 'INSTRUCTION FOLLOWING ERROR: FORMAT NOT FOLLOWED!';

function validator(body: string, id = 'c0'): PythonConstraint {
  return constraint(id, 'python', { name: 'format', function: 'validate_format', source: `def validate_format(response):\n    ${body}\n` }) as PythonConstraint;
}

/** The verdicts of one validator on one answer, in a validator of its own (a fresh episode). */
function verdictsOf(body: string, response = 'the answer') {
  const step = new PythonStepValidator([validator(body)]);
  try {
    return step.checkSync(answer(1, response));
  } finally {
    step.dispose();
  }
}

describe("a validator's (ok, msg) is read as CCTU's handlers read it", () => {
  it('a truthy ok that is not a bool passes (`if not ok:` is false for 1, "yes", [0])', () => {
    expect(verdictsOf("return 1, 'ignored'")).toEqual([]);
    expect(verdictsOf("return 'yes', None")).toEqual([]);
    expect(verdictsOf('return [0], 0')).toEqual([]);
  });

  it('a falsy ok that is not a bool rejects, and msg is formatted by str(), then stripped', () => {
    // f"... {None}" is "... None"; f"... {42}" is "... 42"; f"... {['a']}" is "... ['a']"; add_user strips the whole
    // message, so the spaces after "FOLLOWED! " stay and the trailing ones go.
    const rejected = (body: string) => verdictsOf(body).map((verdict) => [verdict.effect, verdict.message]);
    expect(rejected('return 0, None')).toEqual([['reject-answer', `${FORMAT} None`]]);
    expect(rejected("return '', 42")).toEqual([['reject-answer', `${FORMAT} 42`]]);
    expect(rejected("return None, ['a']")).toEqual([['reject-answer', `${FORMAT} ['a']`]]);
    expect(rejected("return [], '  too short  '")).toEqual([['reject-answer', `${FORMAT}   too short`]]);
  });

  it('any two-item result unpacks (a list, a two-character string); one that does not is an error verdict', () => {
    expect(verdictsOf("return [False, 'no']").map((verdict) => verdict.message)).toEqual([`${FORMAT} no`]);
    // `ok, msg = 'ab'`: ok is 'a' (truthy), so no message.
    expect(verdictsOf("return 'ab'")).toEqual([]);
    const [broken] = verdictsOf('return 5');
    expect(broken?.effect).toBe('error');
    expect(broken?.message).toContain('cannot unpack non-iterable int object');
  });

  it('msg is formatted only when ok is false: a msg whose __str__ raises does not matter when ok is true', () => {
    const body = "class Loud:\n        def __str__(self):\n            raise ValueError('never formatted')\n    return True, Loud()";
    expect(verdictsOf(body)).toEqual([]);
  });
});

describe("a validator's module lives across the episode's answers, as CCTU imports the file once", () => {
  const counting = constraint('c0', 'python', {
    name: 'format',
    function: 'validate_format',
    source: 'seen = []\n\ndef validate_format(response):\n    seen.append(response)\n    return len(seen) == 1, f"call {len(seen)}"\n',
  }) as PythonConstraint;

  it('module-level state set by the first answer is there at the second (load_validator_func, lru_cache)', () => {
    const step = new PythonStepValidator([counting]);
    try {
      expect(step.checkSync(answer(1, 'first'))).toEqual([]);
      expect(step.checkSync(answer(2, 'second')).map((verdict) => verdict.message)).toEqual([`${FORMAT} call 2`]);
    } finally {
      step.dispose();
    }
  });

  it('the next episode starts from a clean module (the isolation the verdicts issue requires; CCTU keeps it per process)', () => {
    const next = new PythonStepValidator([counting]);
    try {
      expect(next.checkSync(answer(1, 'first'))).toEqual([]);
    } finally {
      next.dispose();
    }
  });

  it("module state of one validator is not another's, even with the same source", () => {
    const step = new PythonStepValidator([counting, { ...counting, id: 'c1' }]);
    try {
      expect(step.checkSync(answer(1, 'first'))).toEqual([]);
    } finally {
      step.dispose();
    }
  });
});

function pythonTool(name: string, body: string, parameters: MockTool['parameters'] = { type: 'object', properties: {} }): MockTool {
  const args = Object.keys((parameters as { properties?: object }).properties ?? {}).join(', ');
  return { name, description: name, parameters, implementation: `def ${name}(${args}):\n    ${body}\n`, language: 'python' };
}

const NUMBER = { type: 'object', properties: { x: { type: 'number' } } } as MockTool['parameters'];

describe("a Python tool's result, error text and arguments are CCTU's", () => {
  const runtime = createPythonToolRuntime({
    tools: [
      pythonTool('as_defaultdict', "import collections\n    return collections.defaultdict(int, {'a': 1})"),
      pythonTool('as_dict', "return {'a': 1, 'é': [2]}"),
      pythonTool('raises_value', "raise ValueError('no such author')"),
      pythonTool('raises_key', "return {}['author']"),
      { ...pythonTool('misnamed', 'return 1'), implementation: 'def other():\n    return 1\n' },
      pythonTool('echo', "return f'{x!r} {type(x).__name__}'", NUMBER),
    ],
  });
  afterAll(() => runtime.dispose());

  it('a dict subclass is str()-ed, a dict is JSON (call_function tests type(predict) == dict, not isinstance)', async () => {
    expect(await runtime.call('as_defaultdict', {})).toEqual({ text: "defaultdict(<class 'int'>, {'a': 1})", isError: false });
    expect(await runtime.call('as_dict', {})).toEqual({ text: '{"a": 1, "é": [2]}', isError: false });
  });

  it('an exception is "an error occured when call <name>: <str(e)>" (get_feedback_tools)', async () => {
    expect(await runtime.call('raises_value', {})).toEqual({ text: 'an error occured when call raises_value: no such author', isError: true });
    // str(KeyError('author')) is "'author'".
    expect(await runtime.call('raises_key', {})).toEqual({ text: "an error occured when call raises_key: 'author'", isError: true });
    // call_function: NameError(f"name {name} is not defined") when the code defines no such name.
    expect(await runtime.call('misnamed', {})).toEqual({ text: 'an error occured when call misnamed: name misnamed is not defined', isError: true });
  });

  it('the tool reads the arguments the model wrote: 2.0 is a float, a 20-digit integer exact (json.loads)', async () => {
    expect(await runtime.call('echo', { x: 2 }, '{"x": 2.0}')).toEqual({ text: '2.0 float', isError: false });
    expect(await runtime.call('echo', { x: 2 }, '{"x": 2}')).toEqual({ text: '2 int', isError: false });
    const big = '{"x": 12345678901234567890}'; // JavaScript's parse rounds it to a double; Python's keeps every digit
    expect(await runtime.call('echo', JSON.parse(big), big)).toEqual({ text: '12345678901234567890 int', isError: false });
    // Text that is not the same arguments is not trusted: the parsed object is what runs.
    expect(await runtime.call('echo', { x: 3 }, '{"x": 2.0}')).toEqual({ text: '3 int', isError: false });
  });

  it('through MCP, the arguments text travels in the request and reaches Python', async () => {
    const connection = await connectServer('mock-tools', { kind: 'in-memory', server: createServer({ tools: [pythonTool('echo', "return f'{x!r} {type(x).__name__}'", NUMBER)], world: {} }) });
    try {
      const outcome = await connection.callTool('echo', { x: 2 }, { timeoutMs: 60_000, maxBytes: 65_536, argumentsText: '{"x": 2.0}' });
      expect(outcome.content).toBe('2.0 float');
      const without = await connection.callTool('echo', { x: 2 }, { timeoutMs: 60_000, maxBytes: 65_536 });
      expect(without.content).toBe('2 int');
    } finally {
      await connection.close();
    }
  });
});
