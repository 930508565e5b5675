/* global builtinFactories, lib, libHooks, progressBuffer */
'use strict';
// The trusted part of the isolate: it holds one episode's validators and their state, runs every
// constraint on a step in one call, and stamps and checks what they return. The host composes it with
// the validator files (src/validator/isolate-source.ts) inside a closure, so `builtinFactories`, `lib`,
// `libHooks` and `progressBuffer` are reachable from here but not from validator code.
//
// Crossing the boundary costs more than checking, so only strings cross: the step comes in as JSON,
// verdicts go out as JSON, and a step without verdicts returns ''. The state never leaves the isolate.

const jsonParse = JSON.parse;
const jsonStringify = JSON.stringify;
const PREFIX = 'INSTRUCTION FOLLOWING ERROR: ';
const EFFECTS = ['block-call', 'reject-answer', 'end-episode'];
const NONE = Object.freeze([]);
// progress[0] = index of the constraint running now (-1: none). Shared with the host, so after a timeout
// or a memory-limit breach, which stop the isolate mid-call, the host knows which constraint to blame.
const progress = new Int32Array(progressBuffer);
progress[0] = -1;

let slots = [];
let config = null;

function describeError(error) {
  try {
    if (error instanceof Error) return String(error.name) + ': ' + String(error.message);
    return 'a thrown ' + (error === null ? 'null' : typeof error);
  } catch {
    return 'an exception that could not be described';
  }
}

// Custom code shares the per-call cache through copies: the cached objects are what the built-in
// toolset validators read.
const customLib = Object.freeze({
  parseArguments: lib.parseArguments,
  schemaIssues: lib.schemaIssues,
  callArguments: function (call) {
    return jsonParse(jsonStringify(lib.callArguments(call)));
  },
  callIssues: function (call) {
    const issues = lib.callIssues(call);
    return issues === null ? null : jsonParse(jsonStringify(issues));
  },
});

function makeCustom(source) {
  // The Function constructor parses `source` as one function body, so it cannot close the wrapper and
  // run code at the top level; strict mode keeps `this` undefined and `.caller` out of reach.
  const factory = new Function(
    'lib',
    "'use strict';\n" + source + "\n;return { init: typeof init === 'function' ? init : undefined, check: typeof check === 'function' ? check : undefined };",
  );
  return factory(customLib);
}

// Built-in validators never change the step; a custom one might, under the validators after it, so the
// step is frozen when the task has custom constraints (freezing costs about as much as a simple check).
let guardSteps = true;

function freezeStep(step) {
  if (!guardSteps) return step;
  if (step.kind === 'tool-calls') {
    for (const call of step.calls) Object.freeze(call);
    Object.freeze(step.calls);
  }
  return Object.freeze(step);
}

/** Sets up the episode's validators, none built yet: `configJson` = { constraints, tools, broken }. */
function configure(configJson) {
  config = jsonParse(configJson);
  slots = [];
  guardSteps = config.constraints.some(function (entry) { return entry.category === 'custom'; });
  libHooks.useTools(config.tools);
  for (let index = 0; index < config.constraints.length; index++) {
    const entry = config.constraints[index];
    slots.push({ name: entry.name, impl: null, state: undefined, broken: config.broken.indexOf(index) >= 0 });
  }
}

/** Builds one validator and its initial state; returns an [index, message] failure or null. */
function initSlot(index) {
  const slot = slots[index];
  if (slot === undefined || slot.broken) return null;
  const entry = config.constraints[index];
  progress[0] = index;
  try {
    const impl = entry.category === 'custom' ? makeCustom(entry.source) : builtinFactories[entry.category](lib);
    if (impl === null || typeof impl !== 'object' || typeof impl.check !== 'function') throw new TypeError('the validator defines no check(state, step) function');
    slot.impl = impl;
    if (typeof impl.name === 'string' && slot.name === undefined) slot.name = impl.name;
    // Each validator gets its own copies: one cannot change another's params or tools.
    const params = jsonParse(jsonStringify(entry.params));
    const tools = jsonParse(jsonStringify(config.tools));
    slot.state = typeof impl.init === 'function' ? impl.init(params, tools) : undefined;
    return null;
  } catch (error) {
    slot.broken = true;
    return [index, 'init failed: ' + describeError(error)];
  }
}

/** Runs one validator on a step, appending its (stamped) verdicts to `out`. */
function checkSlot(index, step, out) {
  const slot = slots[index];
  if (slot === undefined || slot.broken) return;
  progress[0] = index;
  let found;
  try {
    const result = slot.impl.check(slot.state, step);
    found = readVerdicts(result, step);
    slot.state = result.state;
  } catch (error) {
    slot.broken = true;
    found = [[index, 'error', null, 'check failed: ' + describeError(error)]];
  }
  for (let position = 0; position < found.length; position++) {
    const verdict = found[position];
    if (verdict[0] === undefined) verdict[0] = index;
    if (verdict[1] !== 'error' && !verdict[3].startsWith(PREFIX)) verdict[3] = PREFIX + slot.name + ' NOT FOLLOWED! ' + verdict[3];
    out.push(verdict);
  }
}

/** Configures and builds every validator. Returns '' or JSON [[index, message]] of constraints whose init failed. */
function initAll(configJson) {
  configure(configJson);
  const failures = [];
  for (let index = 0; index < slots.length; index++) {
    const failure = initSlot(index);
    if (failure !== null) failures.push(failure);
  }
  progress[0] = -1;
  return failures.length === 0 ? '' : jsonStringify(failures);
}

/** Builds one validator (after configure): '' or JSON [[index, message]]. */
function initOne(index) {
  const failure = initSlot(index);
  progress[0] = -1;
  return failure === null ? '' : jsonStringify([failure]);
}

/** Checks one step against every constraint. Returns '' or JSON [[index, effect, callId, message]]. */
function checkAll(stepJson) {
  const step = freezeStep(jsonParse(stepJson));
  const out = [];
  for (let index = 0; index < slots.length; index++) checkSlot(index, step, out);
  progress[0] = -1;
  return out.length === 0 ? '' : jsonStringify(out);
}

/** Checks one step against one constraint (the host's careful mode, see isolated-step-validator.ts). */
function checkOne(stepJson, index) {
  const out = [];
  checkSlot(index, freezeStep(jsonParse(stepJson)), out);
  progress[0] = -1;
  return out.length === 0 ? '' : jsonStringify(out);
}

/** Reads what a validator returned, trusting nothing about its shape. Throws on anything malformed. */
function readVerdicts(result, step) {
  if (result === null || typeof result !== 'object') throw new TypeError('check must return { verdicts, state }');
  const verdicts = result.verdicts;
  if (verdicts === undefined || verdicts === null) return NONE;
  if (!Array.isArray(verdicts)) throw new TypeError('verdicts must be an array');
  if (verdicts.length === 0) return NONE;
  const found = [];
  for (let position = 0; position < verdicts.length; position++) {
    const verdict = verdicts[position];
    if (verdict === null || typeof verdict !== 'object') throw new TypeError('a verdict must be an object');
    const effect = verdict.effect;
    const message = verdict.message;
    if (EFFECTS.indexOf(effect) < 0) throw new TypeError('a verdict effect must be one of ' + EFFECTS.join(', '));
    if (typeof message !== 'string') throw new TypeError('a verdict message must be a string');
    let callId = null;
    if (effect === 'block-call') {
      callId = verdict.callId;
      const known = step.kind === 'tool-calls' && step.calls.some(function (call) { return call.id === callId; });
      if (!known) throw new TypeError('a block-call verdict must name a call of the step');
    } else if (effect === 'reject-answer' && step.kind !== 'final-answer') {
      throw new TypeError('reject-answer applies to a final answer only');
    }
    found.push([undefined, effect, callId, message]);
  }
  return found;
}

function deepFreeze(root) {
  const seen = new Set();
  const pending = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    try {
      Object.freeze(value);
    } catch {
      // typed arrays with elements cannot be frozen; nothing reachable here holds one
    }
    pending.push(Object.getPrototypeOf(value));
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor === undefined) continue;
      if ('value' in descriptor) pending.push(descriptor.value);
      else pending.push(descriptor.get, descriptor.set);
    }
  }
}

globalThis.__init = initAll;
globalThis.__check = checkAll;
globalThis.__configure = configure;
globalThis.__initOne = initOne;
globalThis.__checkOne = checkOne;
// Validators are deterministic reducers: no clock and no randomness, so re-validating a saved trajectory gives
// the same verdicts every time. Both throw (an `error` verdict for the constraint that tried), never answer.
Math.random = function random() {
  throw new Error('Math.random is not available to constraints: a validator must be deterministic');
};
globalThis.Date = function Date() {
  throw new Error('Date is not available to constraints: a validator must be deterministic');
};
globalThis.Date.now = globalThis.Date;
// Freeze every intrinsic before any validator code runs, those reachable only through syntax too:
// a validator cannot patch Array.prototype, JSON or an iterator under the others, nor leave state on
// the global object for a later episode.
deepFreeze([
  globalThis,
  function* () {},
  async function () {},
  async function* () {},
  [][Symbol.iterator](),
  new Map().entries(),
  new Set().values(),
  ''[Symbol.iterator](),
  'a'.matchAll(/a/gu),
  Int8Array,
]);
