/* global builtinFactories, lib, libHooks, lockDown, describeError, checkSlot */
'use strict';
// The trusted part of the shared validator isolate: it holds one episode's built-in validators and their
// state, runs them all on a step in one call, and stamps what they return. No custom constraint's code
// ever runs here (they run in an isolate of their own, a context each: custom-runtime.js). The host composes this file with
// the shared helpers and the validator files inside one closure (src/validator/isolate-source.ts); the
// script's value is `entry`, which the host holds as a reference: nothing is put on the global object.
//
// Crossing the boundary costs more than checking, so only strings cross: the step comes in as JSON,
// verdicts go out as JSON, and a step without verdicts returns ''. The state never leaves the isolate.

const jsonParse = JSON.parse;
const jsonStringify = JSON.stringify;
// progress[0] = index of the constraint running now (-1: none), in memory shared with the host: after a
// timeout or a memory-limit breach, which stop the isolate mid-call, the host knows which one to blame.
let progress = new Int32Array(1);
let slots = [];

/**
 * Builds the episode's built-in validators afresh from JSON [{ index, category, params }] and the task's
 * tools as JSON (apart, so a validator's copy is parsed from the text, never re-serialised).
 * Returns '' or JSON [[index, message]] of constraints whose init failed.
 */
function initAll(constraintsJson, toolsJson) {
  libHooks.useTools(jsonParse(toolsJson));
  slots = [];
  const failures = [];
  for (const entry of jsonParse(constraintsJson)) {
    progress[0] = entry.index;
    try {
      const impl = builtinFactories[entry.category](lib);
      // Each validator gets its own copies: one cannot change another's params or tools. Only a validator
      // whose init declares the tools parameter gets the tools (copying them for all was most of init).
      const tools = impl.init.length >= 2 ? jsonParse(toolsJson) : undefined;
      const state = impl.init(jsonParse(jsonStringify(entry.params)), tools);
      slots.push({ index: entry.index, name: impl.name, check: impl.check, state: state });
    } catch (error) {
      failures.push([entry.index, 'init failed: ' + describeError(error)]);
    }
  }
  progress[0] = -1;
  return failures.length === 0 ? '' : jsonStringify(failures);
}

/** Checks one step against every built-in validator. Returns '' or JSON [[index, effect, callId, message]]. */
function checkAll(stepJson) {
  const step = jsonParse(stepJson);
  let out = null;
  for (let position = 0; position < slots.length; position++) {
    const slot = slots[position];
    if (slot === null) continue;
    progress[0] = slot.index;
    const found = checkSlot(slot, step);
    if (slot.failed === true) slots[position] = null;
    for (let index = 0; index < found.length; index++) {
      if (out === null) out = [];
      out.push([slot.index, found[index][0], found[index][1], found[index][2]]);
    }
  }
  progress[0] = -1;
  return out === null ? '' : jsonStringify(out);
}

lockDown(lib);

/**
 * The one entry point: ('init', constraintsJson, toolsJson, progressBuffer?) or ('check', stepJson). The
 * progress memory belongs to the context: it is passed on the context's first init only.
 */
function entry(operation, text, toolsJson, progressBuffer) {
  if (operation === 'check') return checkAll(text);
  if (operation === 'init') {
    if (progressBuffer !== undefined) progress = new Int32Array(progressBuffer);
    return initAll(text, toolsJson);
  }
  throw new TypeError('unknown operation ' + String(operation));
}
return entry;
