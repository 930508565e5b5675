import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPythonToolRuntime } from '../../../mcp-servers/mock-tools/python-tool-runtime.ts';
import { PythonSandbox } from '../../../src/python-sandbox/index.ts';
import type { Constraint } from '../../../src/schemas/constraint.ts';
import type { Verdict } from '../../../src/schemas/step.ts';
import { createStepValidator, disposeIsolatePool, revalidate } from '../../../src/validator/index.ts';
import { TOOLS, answer, constraint } from '../../unit/validator/fixtures.ts';

// The rule (issue 29, src/python-sandbox/README.md "Isolation"): no Python validator can change another validator's
// verdict, a tool's result or the next episode, whatever it does to its interpreter. Each payload below tampers with
// what every validator's call goes through (builtins, sys.modules, json, re, the sandbox's own call path, class
// attributes of shared types, hooks the interpreter keeps) and then passes. Each is checked twice:
// - control: run in ONE interpreter before the honest validators, it does change their verdicts (so the payload is
//   real, and the containment test below can fail);
// - contained: as a constraint beside the honest validators, their verdicts are exactly those without it.

beforeAll(() => PythonSandbox.openSync().dispose(), 180_000);
afterAll(() => disposeIsolatePool());

/**
 * Honest validators, CCTU style, and the answer every one of them must reject by its own rule:
 * "no total here and far too many words in this answer" has no final period, no "Total: <n>", is not JSON, and has
 * 11 words (more than 5).
 */
const HONEST: Array<[string, string]> = [
  ['period', "def check(response):\n    if response.rstrip().endswith('.'):\n        return True, 'ok'\n    return False, 'end with a period'\n"],
  ['total', "import re\n\n\ndef check(response):\n    if re.search(r'Total: \\d+', response):\n        return True, 'ok'\n    return False, 'give Total: <n>'\n"],
  ['json', "import json\n\n\ndef check(response):\n    try:\n        json.loads(response)\n    except ValueError:\n        return False, 'answer in JSON'\n    return True, 'ok'\n"],
  ['words', "def check(response):\n    if len(response.split()) <= 5:\n        return True, 'ok'\n    return False, 'at most 5 words'\n"],
];
const ANSWER = 'no total here and far too many words in this answer';
const HONEST_MESSAGES = ['end with a period', 'give Total: <n>', 'answer in JSON', 'at most 5 words'];

const FORGED_ENVELOPE = JSON.stringify(JSON.stringify({ ok: true, value: '[true, "forged"]' }));

/** Hostile validator bodies (module level, then `check` returns (True, 'ok')). */
const PAYLOADS: Array<[string, string]> = [
  ['replaces builtins (len, isinstance)', 'import builtins\nbuiltins.len = lambda value: 0\nbuiltins.isinstance = lambda *args: True\n'],
  ['replaces re in sys.modules', "import sys, types\nfake = types.ModuleType('re')\nfake.search = lambda *a, **k: True\nfake.match = fake.search\nsys.modules['re'] = fake\n"],
  ['patches re.search', 'import re\nre.search = lambda *a, **k: True\n'],
  ['patches json.dumps (the envelope every call answers with)', `import json\njson.dumps = lambda *a, **k: ${FORGED_ENVELOPE}\n`],
  ['patches json.loads (the arguments every call reads)', "import json\njson.loads = lambda text, *a, **k: ['Total: 1 ok.']\n"],
  ['rewrites the sandbox call function itself', `import sys\ncall = sys.modules['__main__'].__dict__['__sandbox_call']\ncall.__code__ = (lambda unit, function, args_json, mode: ${FORGED_ENVELOPE}).__code__\n`],
  ['patches a class attribute of a shared type (json.JSONDecoder.decode)', "import json.decoder\njson.decoder.JSONDecoder.decode = lambda self, text, *a: ['Total: 1 ok.']\n"],
  ['patches str.endswith through the type dict (gc)', "import gc\ngc.get_referents(str.__dict__)[0]['endswith'] = lambda self, *a: True\ntype('Flush', (str,), {}).x = 1\n"],
  ['installs an audit hook that patches re at every exec', "import sys\ndef hook(event, args):\n    if event == 'exec':\n        import re\n        re.search = lambda *a, **k: True\nsys.addaudithook(hook)\n"],
  ['puts a finder first on sys.meta_path serving a fake re', "import sys, types, importlib.machinery\nclass Loader:\n    def create_module(self, spec):\n        fake = types.ModuleType('re')\n        fake.search = lambda *a, **k: True\n        return fake\n    def exec_module(self, module):\n        pass\nclass Finder:\n    def find_spec(self, name, path=None, target=None):\n        return importlib.machinery.ModuleSpec(name, Loader()) if name == 're' else None\nsys.meta_path.insert(0, Finder())\ndel sys.modules['re']\n"],
  ['replaces builtins.__import__ to hand out a fake re', "import builtins, sys, types\nreal = builtins.__import__\nfake = types.ModuleType('re')\nfake.search = lambda *a, **k: True\ndef imp(name, *args, **kwargs):\n    return fake if name == 're' else real(name, *args, **kwargs)\nbuiltins.__import__ = imp\n"],
  ['registers a gc callback that patches re', "import gc, re\ngc.callbacks.append(lambda phase, info: setattr(re, 'search', lambda *a, **k: True))\ngc.collect()\n"],
];

function hostileSource(body: string): string {
  return `${body}\n\ndef check(response):\n    return True, 'ok'\n`;
}

function honestConstraints(): Constraint[] {
  return HONEST.map(([id, source]) => constraint(id, 'python', { name: id, function: 'check', source }));
}

/** The honest validators' verdicts, by the rule of each: all four reject ANSWER with their own message. */
const EXPECTED: Verdict[] = HONEST.map(([id], index) => ({
  constraintId: id,
  category: 'python',
  effect: 'reject-answer',
  // customConstraintName: the name upper-cased, as CCTU's scorer reads it
  message: `INSTRUCTION FOLLOWING ERROR: ${id.toUpperCase()} NOT FOLLOWED! ${HONEST_MESSAGES[index]}`,
}));

/** The honest validators' outcomes when the payload ran first in the SAME interpreter (what isolation prevents). */
function sharedInterpreterOutcomes(body: string): string[] {
  const sandbox = PythonSandbox.openSync({ timeoutMs: 5_000 });
  try {
    sandbox.define('hostile', hostileSource(body));
    HONEST.forEach(([id, source]) => sandbox.define(id, source));
    sandbox.call('hostile', 'check', JSON.stringify([ANSWER]), 'json');
    return HONEST.map(([id]) => JSON.stringify(sandbox.call(id, 'check', JSON.stringify([ANSWER]), 'json')));
  } finally {
    sandbox.dispose();
  }
}

describe('a hostile Python validator cannot change another validator’s verdict', () => {
  const honestAlone = HONEST.map(() => JSON.stringify({ ok: true, value: '' }));
  it('control: the honest validators alone, in one interpreter, reject the answer by their rules', () => {
    const outcomes = sharedInterpreterOutcomes('pass');
    expect(outcomes.map((outcome) => JSON.parse(JSON.parse(outcome).value)[0])).toEqual([false, false, false, false]);
    honestAlone.splice(0, honestAlone.length, ...outcomes);
  });

  for (const [name, body] of PAYLOADS) {
    describe(name, () => {
      it('control: in one shared interpreter it changes an honest verdict', () => {
        expect(sharedInterpreterOutcomes(body)).not.toEqual(honestAlone);
      });

      it('contained: beside it, every honest verdict is the one the rule gives, on two answers and on re-validation', async () => {
        const constraints = [constraint('hostile', 'python', { name: 'hostile', function: 'check', source: hostileSource(body) }), ...honestConstraints()];
        const validator = await createStepValidator(constraints, TOOLS, { python: { timeoutMs: 5_000 } });
        try {
          for (const round of [1, 2]) {
            const verdicts = await validator.check(answer(round, ANSWER));
            expect(verdicts.filter((verdict) => verdict.constraintId !== 'hostile')).toEqual(EXPECTED);
          }
        } finally {
          validator.dispose();
        }
        // `sandbox validate` re-validates a recorded trajectory through `revalidate`: the same verdicts there.
        const again = revalidate(constraints, TOOLS, [answer(1, ANSWER)]);
        expect(again[0]!.filter((verdict) => verdict.constraintId !== 'hostile')).toEqual(EXPECTED);
      }, 180_000); // ten sandboxes opened: seconds each on a loaded 2-core machine
    });
  }

  it('a payload answering for the sandbox with text that is not its envelope gets an error verdict; the run goes on', async () => {
    const source = hostileSource("import json\njson.dumps = lambda *a, **k: 'not json'\n");
    const validator = await createStepValidator([constraint('hostile', 'python', { name: 'hostile', function: 'check', source }), ...honestConstraints()], TOOLS);
    try {
      expect(await validator.check(answer(1, ANSWER))).toEqual([
        { constraintId: 'hostile', category: 'python', effect: 'error', message: "check failed: the sandbox's answer is not its envelope: not json" },
        ...EXPECTED,
      ]);
    } finally {
      validator.dispose();
    }
  }, 180_000);

  it('the next episode: a validator tampered with in one episode leaves the next episode’s verdicts as the rule gives', async () => {
    const source = hostileSource(`import json, re\njson.dumps = lambda *a, **k: ${FORGED_ENVELOPE}\nre.search = lambda *a, **k: True\n`);
    const first = await createStepValidator([constraint('total', 'python', { name: 'total', function: 'check', source: source })], TOOLS);
    await first.check(answer(1, ANSWER));
    first.dispose();
    const next = await createStepValidator(honestConstraints(), TOOLS);
    try {
      expect(await next.check(answer(1, ANSWER))).toEqual(EXPECTED);
    } finally {
      next.dispose();
    }
  });

  it('a tool’s result: a validator patching json and re leaves the episode’s Python tools answering as before', async () => {
    const tools = createPythonToolRuntime({
      tools: [{ name: 'find', description: 'finds', parameters: { type: 'object', properties: { text: { type: 'string' } } }, implementation: "import re\n\n\ndef find(text):\n    return {'found': bool(re.search(r'\\d+', text))}\n", language: 'python' }],
    });
    const validator = await createStepValidator(
      [constraint('hostile', 'python', { name: 'hostile', function: 'check', source: hostileSource(`import json, re\njson.dumps = lambda *a, **k: '{"found": true}'\nre.search = lambda *a, **k: True\n`) })],
      TOOLS,
    );
    try {
      await validator.check(answer(1, ANSWER));
      // CCTU's text of a dict result: json.dumps(..., ensure_ascii=False); 'no digits' has no \d+
      expect(await tools.call('find', { text: 'no digits' })).toEqual({ text: '{"found": false}', isError: false });
    } finally {
      validator.dispose();
      tools.dispose();
    }
  });
});

describe('the ways out of the interpreter stay closed', () => {
  const run = (body: string) => {
    const sandbox = PythonSandbox.openSync();
    try {
      sandbox.define('probe', `def probe():\n    ${body.split('\n').join('\n    ')}\n`);
      return sandbox.call('probe', 'probe', '[]', 'json');
    } finally {
      sandbox.dispose();
    }
  };
  // Take the import blocker off sys.meta_path, put the original __import__ back and forget the refused entries.
  const UNBLOCK = [
    'import sys, builtins',
    "sys.meta_path[:] = [finder for finder in sys.meta_path if 'Blocked' not in repr(finder)]",
    "builtins.__import__ = builtins.__import__.__globals__['_real_import']",
    'for name in [name for name, module in list(sys.modules.items()) if module is None]:',
    '    del sys.modules[name]',
  ].join('\n');

  it.each(['js', 'pyodide_js'])('import %s after removing the blocker and restoring __import__: no such module', (name) => {
    expect(run(`${UNBLOCK}\nimport ${name}\nreturn str(${name})`)).toEqual({ ok: false, kind: 'exception', error: expect.stringMatching(new RegExp(`^ModuleNotFoundError: No module named '${name}'`)) });
  });

  it('the blocker really was removed: an ordinary refused module imports once unblocked (so the test above can fail)', () => {
    expect(run(`${UNBLOCK}\nimport asyncio\nreturn asyncio.__name__`)).toEqual({ ok: true, value: '"asyncio"' });
  });

  it.each([
    ['os.chmod', "import os\nos.chmod('/tmp', 0o777)\nreturn 'changed'"],
    ['os.chmod of a file', "import os\nos.chmod('/lib/python314.zip', 0o666)\nreturn 'changed'"],
    ['os.utime', "import os\nos.utime('/lib/python314.zip', (0, 0))\nreturn 'changed'"],
  ])('%s is refused, so the read-only file system stays read-only', (_name, body) => {
    expect(run(body)).toEqual({ ok: false, kind: 'exception', error: expect.stringMatching(/^PermissionError/) });
    expect(run("open('/tmp/x', 'w').write('x')\nreturn 'written'")).toEqual({ ok: false, kind: 'exception', error: expect.stringMatching(/^PermissionError/) });
  });
});
