# Runs once in every Python sandbox after Pyodide boots, before any task code. The isolate around it is the
# security boundary (it has no Node API); this prelude closes what Pyodide itself offers, so task code gets
# clear errors instead of half-working features, and its calls stay deterministic:
# - the JavaScript bridges (`js`, `pyodide_js`, `pyodide`, `_pyodide`, `pyodide.code.run_js`) and native-code
#   and process/network modules cannot be imported;
# - os functions that start processes or send signals raise PermissionError;
# - the in-memory file system is made read-only (a write raises PermissionError), so no call leaves state behind;
#   the isolate then refuses chmod, chown and utime itself, so no code can make it writable again;
# - every call runs the task's code in a fresh namespace with `random` reseeded; the clock is frozen by the isolate.
import builtins
import json
import os
import random
import sys
import traceback

# Pyodide's finder of JavaScript modules (`js`, `pyodide_js`) leaves sys.meta_path and forgets both modules, so
# nothing is left to import even by code that takes the blocker below off sys.meta_path and puts the original
# `__import__` back (`pyodide_js` is the whole Pyodide API, the way out to the isolate's JavaScript).
from _pyodide._importhook import jsfinder as _jsfinder

_jsfinder.jsproxies.clear()
sys.meta_path[:] = [finder for finder in sys.meta_path if finder is not _jsfinder]
del _jsfinder

_BLOCKED_ROOTS = frozenset({
    'js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'micropip',
    'ctypes', '_ctypes', 'cffi',
    'subprocess', '_posixsubprocess', 'multiprocessing', '_multiprocessing',
    'socket', '_socket', 'ssl', '_ssl', 'select', 'selectors', 'asyncio',
    'urllib.request', 'http.client', 'ftplib', 'smtplib', 'telnetlib',
})


def _blocked(name):
    parts = name.split('.')
    return any('.'.join(parts[:i]) in _BLOCKED_ROOTS for i in range(1, len(parts) + 1))


class _BlockedImporter:
    """First on sys.meta_path: refuses the modules above, even when a later finder could load them."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if _blocked(name):
            raise ImportError(f"module '{name}' is not available in the Python sandbox")
        return None


_real_import = builtins.__import__


def _guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
    # Modules Pyodide imported while booting are already in sys.modules; a plain import would return them
    # without asking sys.meta_path, so names are checked here too.
    if level == 0 and _blocked(name):
        raise ImportError(f"module '{name}' is not available in the Python sandbox")
    if level == 0 and fromlist:
        for item in fromlist:
            if isinstance(item, str) and _blocked(f'{name}.{item}'):
                raise ImportError(f"module '{name}.{item}' is not available in the Python sandbox")
    return _real_import(name, globals, locals, fromlist, level)


builtins.__import__ = _guarded_import
sys.meta_path.insert(0, _BlockedImporter)
for _name in list(sys.modules):
    if _blocked(_name):
        sys.modules[_name] = None


def _refuse(name):
    def refused(*args, **kwargs):
        raise PermissionError(f'os.{name} is not available in the Python sandbox')
    refused.__name__ = name
    return refused


for _name in ('system', 'popen', 'fork', 'forkpty', 'kill', 'killpg', 'execv', 'execve', 'execl', 'execle',
              'execlp', 'execlpe', 'execvp', 'execvpe', 'spawnl', 'spawnle', 'spawnlp', 'spawnlpe', 'spawnv',
              'spawnve', 'spawnvp', 'spawnvpe', 'posix_spawn', 'posix_spawnp', 'putenv', 'unsetenv'):
    if hasattr(os, _name):
        setattr(os, _name, _refuse(_name))


def _read_only(top):
    for root, dirs, files in os.walk(top):
        for file in files:
            try:
                os.chmod(os.path.join(root, file), 0o444)
            except OSError:
                pass
        try:
            os.chmod(root, 0o555)
        except OSError:
            pass


for _top in os.listdir('/'):
    if _top not in ('dev', 'proc'):
        _read_only('/' + _top)
os.chmod('/', 0o555)
sys.dont_write_bytecode = True

_SEED = 0
_units = {}
_MAX_CHARS = 1 << 20


def _describe(error):
    return f'{type(error).__name__}: {error}'


def __sandbox_define(unit, source):
    """Compiles `source` once; returns '' or the compile error."""
    try:
        _units[unit] = compile(source, unit, 'exec')
        return ''
    except BaseException as error:  # SyntaxError, or anything compile raises
        return _describe(error)


def __sandbox_functions(unit):
    """The callable names `unit` defines at top level (runs it in a fresh namespace), in a JSON envelope."""
    try:
        namespace = {'__name__': unit}
        exec(_units[unit], namespace)
        names = sorted(name for name, value in namespace.items() if callable(value) and not name.startswith('__'))
        return json.dumps({'ok': True, 'value': json.dumps(names)})
    except BaseException as error:
        return json.dumps({'ok': False, 'error': _describe(error)}, ensure_ascii=False)


def _cctu_text(result):
    # CCTU's rule for a tool's return value (utils/utils.py, call_function): `type(predict) == dict or list` as JSON
    # (ensure_ascii=False), anything else str(): an exact type test, so a dict subclass (OrderedDict, defaultdict) is
    # str()'d there, and here.
    if type(result) == dict or type(result) == list:
        return json.dumps(result, ensure_ascii=False)
    return str(result)


def _tool_text(mode, error):
    # A tool's exception as CCTU's feedback quotes it, `str(e)` (utils/utils.py, get_feedback_tools), under 'text';
    # an exception whose __str__ raises leaves its type's name.
    if mode != 'tool':
        return {}
    try:
        return {'text': str(error)}
    except BaseException:
        return {'text': type(error).__name__}


_modules = {}


def _validator_module(unit):
    # CCTU imports a validator's file once per process and keeps the module (validator_loader.py, load_validator_func
    # under lru_cache): module-level state lives from one call to the next. A sandbox is one validator's for one
    # episode, so the module lives across that episode's calls. A failed import is not kept (lru_cache keeps no
    # exception): the next call imports again.
    namespace = _modules.get(unit)
    if namespace is None:
        namespace = {'__name__': unit}
        exec(_units[unit], namespace)
        _modules[unit] = namespace
    return namespace


def __sandbox_call(unit, function, args_json, mode):
    """Runs `function` of `unit`. mode 'tool': a fresh namespace, keyword arguments, CCTU's text;
    mode 'validator': the unit's module (made at its first call, kept), one positional argument, CCTU's reading of
    `(ok, msg)`; mode 'json': a fresh namespace, positional arguments, the result as JSON.
    Returns a JSON envelope, never raises."""
    try:
        if mode == 'tool':
            # utils/utils.py, call_function: `namespace = {}; exec(code, namespace, namespace)`, then
            # NameError(f"name {name} is not defined") when the code defines no such name.
            namespace = {}
            exec(_units[unit], namespace, namespace)
            if function not in namespace:
                raise NameError(f'name {function} is not defined')
            target = namespace[function]
        elif mode == 'validator':
            namespace = _validator_module(unit)
            if function not in namespace:
                return json.dumps({'ok': False, 'error': f'the code does not define a function {function}'})
            target = namespace[function]
        else:
            namespace = {'__name__': unit}
            exec(_units[unit], namespace)
            target = namespace.get(function)
            if not callable(target):
                return json.dumps({'ok': False, 'error': f'the code does not define a function {function}'})
        random.seed(_SEED)
        args = json.loads(args_json)
        if mode == 'tool':
            if not isinstance(args, dict):
                return json.dumps({'ok': False, 'error': 'arguments must be a JSON object'})
            text = _cctu_text(target(**args))
        elif mode == 'validator':
            # handlers/response.py (ResponseFormatHandler.check and its two siblings): `ok, msg = call_validator(...)`
            # then `if not ok:` a message made with f"... {msg}": any two-item result unpacks, `ok` is read for its
            # truth, and `msg` is formatted (str) only when `ok` is false.
            ok, msg = target(*args)
            text = json.dumps([True, ''] if not (not ok) else [False, f'{msg}'], ensure_ascii=False)
        else:
            text = json.dumps(target(*args), ensure_ascii=False)
        if len(text) > _MAX_CHARS:
            text = text[:_MAX_CHARS]
        return json.dumps({'ok': True, 'value': text}, ensure_ascii=False)
    except RecursionError as error:
        return json.dumps({'ok': False, 'error': _describe(error), **_tool_text(mode, error)})
    except MemoryError:
        return json.dumps({'ok': False, 'error': 'MemoryError: the Python sandbox ran out of memory', 'memory': True})
    except BaseException as error:
        frames = traceback.extract_tb(error.__traceback__)
        where = next((f' (line {frame.lineno})' for frame in reversed(frames) if frame.filename == unit), '')
        return json.dumps({'ok': False, 'error': _describe(error) + where, **_tool_text(mode, error)}, ensure_ascii=False)
