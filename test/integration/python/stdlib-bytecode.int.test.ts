import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PythonSandbox, sandboxStarts } from '../../../src/python-sandbox/index.ts';

// The rule (src/python-sandbox/README.md, "Start-up"): `npm install`/`npm ci` builds Pyodide's standard library with
// a `.pyc` beside every `.py` (compiled by the package's own CPython), and sandboxes boot from it; the `.py` stay, so
// a traceback through the standard library shows its source lines as before. This test runs on an installed checkout:
// a missing build is a failure here, not a skip (CI installs with `npm ci`, which runs the build).

const PROBE = `import sys, zipfile, importlib.util, traceback, json, typing

STDLIB = next(entry for entry in sys.path if entry.endswith('.zip'))


def entries():
    with zipfile.ZipFile(STDLIB) as archive:
        names = set(archive.namelist())
        sources = sorted(name for name in names if name.endswith('.py'))
        headers = {name: archive.read(name)[:8] for name in names if name.endswith('.pyc')}
    return {
        'sources': len(sources),
        'without_bytecode': [name for name in sources if name + 'c' not in names],
        # PEP 552 header: the magic number of this interpreter, then flags 0b01 (hash based, not checked against the source)
        'bad_headers': [name for name, header in headers.items()
                        if header[:4] != importlib.util.MAGIC_NUMBER or int.from_bytes(header[4:8], 'little') != 1],
    }


def loaded_from():
    return [json.__file__, typing.__file__]


def stdlib_traceback():
    try:
        json.loads('{not json')
    except ValueError:
        return traceback.format_exc()
`;

let sandbox: PythonSandbox;
beforeAll(() => {
  sandbox = PythonSandbox.openSync();
  expect(sandbox.define('probe', PROBE)).toBe('');
}, 180_000);
afterAll(() => sandbox.dispose());


describe('the standard library with bytecode', () => {
  it('is what the sandboxes boot from', () => {
    expect(sandboxStarts.stdlib).toBe('bytecode');
  });

  it('has a .pyc for every .py, each for this interpreter and unchecked', () => {
    const outcome = sandbox.call('probe', 'entries', '[]', 'json');
    expect(outcome.ok).toBe(true);
    const found = JSON.parse(outcome.ok ? outcome.value : '{}') as { sources: number; without_bytecode: string[]; bad_headers: string[] };
    expect(found.sources).toBeGreaterThan(500); // Pyodide 314.0.7 ships 559 modules
    expect(found.without_bytecode).toEqual([]);
    expect(found.bad_headers).toEqual([]);
  });

  it('is imported from the bytecode: modules imported at boot (typing) and later (json)', () => {
    const outcome = sandbox.call('probe', 'loaded_from', '[]', 'json');
    expect(outcome.ok).toBe(true);
    expect(JSON.parse(outcome.ok ? outcome.value : '[]')).toEqual(['/lib/python314.zip/json/__init__.pyc', '/lib/python314.zip/typing.pyc']);
  });

  it('keeps source lines in tracebacks through the standard library', () => {
    const outcome = sandbox.call('probe', 'stdlib_traceback', '[]', 'json');
    expect(outcome.ok).toBe(true);
    const text = JSON.parse(outcome.ok ? outcome.value : '""') as string;
    // the frame names the module's .py, as a source import does, and the next line is its source: json.loads calls
    // the default decoder (Lib/json/__init__.py, `return _default_decoder.decode(s)`)
    expect(text).toMatch(/File "\/lib\/python314\.zip\/json\/__init__\.py", line \d+, in loads\n\s+return _default_decoder\.decode\(s\)/);
    expect(text).toMatch(/JSONDecodeError/);
  });
});
