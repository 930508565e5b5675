/* global lib, libHooks, lockDown, describeError, checkSlot */
'use strict';
// One custom constraint, alone in a context of its own (its own intrinsics and global object) in the isolate of
// its episode's custom constraints: nothing it can reach belongs to the runtime, a built-in validator or another
// custom constraint (no object of one context is handed to another; they share only the isolate's heap). The host
// composes this file with the shared helpers inside one closure (src/validator/isolate-source.ts); the
// script's value is `entry`, which the host holds as a reference. Its only handles are its own `args`,
// `tools`, `state`, `step` and the frozen `lib` (its own copy). What it returns is read here and crosses
// to the host as JSON text; the host checks that text again before believing it.

const jsonParse = JSON.parse;
const jsonStringify = JSON.stringify;
const makeFunction = Function;
let constraint = null;

/** Compiles the source, runs its init. Returns '' or why it failed. */
function initCustom(name, source, argsJson, toolsJson) {
  try {
    // The Function constructor parses `source` as one function body, so it cannot close the wrapper and
    // run code at the top level; strict mode keeps `this` undefined and `.caller` out of reach.
    const factory = new makeFunction(
      'lib',
      "'use strict';\n" + source + "\n;return { init: typeof init === 'function' ? init : undefined, check: typeof check === 'function' ? check : undefined };",
    );
    const impl = factory(lib);
    const check = impl.check;
    const init = impl.init;
    if (typeof check !== 'function') throw new TypeError('the validator defines no check(state, step) function');
    libHooks.useTools(jsonParse(toolsJson));
    const state = typeof init === 'function' ? init(jsonParse(argsJson), jsonParse(toolsJson)) : undefined;
    constraint = { name: name, check: check, state: state };
    return '';
  } catch (error) {
    return 'init failed: ' + describeError(error);
  }
}

/** The step is frozen: changing it is an error verdict, not a silent no-op (it is this isolate's own copy anyway). */
function freezeStep(step) {
  if (step.kind === 'tool-calls') {
    for (const call of step.calls) Object.freeze(call);
    Object.freeze(step.calls);
  }
  return Object.freeze(step);
}

/** Checks one step. Returns '' or JSON [[effect, callId, message]] (effect 'error' when the check failed). */
function checkCustom(stepJson) {
  if (constraint === null) return jsonStringify([['error', null, 'check failed: the constraint was not initialised']]);
  const step = freezeStep(jsonParse(stepJson));
  const found = checkSlot(constraint, step);
  if (constraint.failed === true) constraint = null;
  return found.length === 0 ? '' : jsonStringify(found);
}

lockDown(lib);

/** The one entry point: ('init', name, source, argsJson, toolsJson) or ('check', stepJson). */
function entry(operation, first, source, argsJson, toolsJson) {
  try {
    if (operation === 'check') return checkCustom(first);
    if (operation === 'init') return initCustom(first, source, argsJson, toolsJson);
    return 'unknown operation';
  } catch (error) {
    // Only a string ever leaves: whatever was thrown stays here.
    return jsonStringify([['error', null, 'check failed: ' + describeError(error)]]);
  }
}
return entry;
