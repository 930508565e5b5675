/* exported FOLLOWING_ERROR_PREFIX, describeError, readVerdicts, stampVerdicts, checkSlot */
'use strict';
// What a validator's check returned, read without trusting its shape, and stamped with the prefix CCTU's
// scorer recognises. Shared by the built-in runtime (runtime.js) and a custom constraint's own context
// (custom-runtime.js); both return verdicts to the host as JSON text, never as objects.

// The isolate's copy of FOLLOWING_ERROR_PREFIX (src/schemas/cctu-markers.ts): this file runs inside isolated-vm, which
// cannot import a module of the host; test/unit/schemas/cctu-markers.test.ts keeps the two equal.
const FOLLOWING_ERROR_PREFIX = 'INSTRUCTION FOLLOWING ERROR: ';
const EFFECTS = ['block-call', 'reject-answer', 'end-episode'];

function describeError(error) {
  try {
    if (error instanceof Error) return String(error.name) + ': ' + String(error.message);
    return 'a thrown ' + (error === null ? 'null' : typeof error);
  } catch {
    return 'an exception that could not be described';
  }
}

/**
 * Reads the verdicts of `result` for `step` as [effect, callId, message] triples. Throws on anything
 * malformed: a wrong shape, an unknown effect, a `callId` not in the step, reject-answer on tool calls.
 */
function readVerdicts(result, step) {
  if (result === null || typeof result !== 'object') throw new TypeError('check must return { verdicts, state }');
  const verdicts = result.verdicts;
  if (verdicts === undefined || verdicts === null) return [];
  if (!Array.isArray(verdicts)) throw new TypeError('verdicts must be an array');
  const found = [];
  for (let position = 0; position < verdicts.length; position++) {
    const verdict = verdicts[position];
    if (verdict === null || typeof verdict !== 'object') throw new TypeError('a verdict must be an object');
    const effect = verdict.effect;
    const message = verdict.message;
    if (typeof effect !== 'string' || EFFECTS.indexOf(effect) < 0) throw new TypeError('a verdict effect must be one of ' + EFFECTS.join(', '));
    if (typeof message !== 'string') throw new TypeError('a verdict message must be a string');
    let callId = null;
    if (effect === 'block-call') {
      callId = verdict.callId;
      const known = typeof callId === 'string' && step.kind === 'tool-calls' && step.calls.some(function (call) { return call.id === callId; });
      if (!known) throw new TypeError('a block-call verdict must name a call of the step');
    } else if (effect === 'reject-answer' && step.kind !== 'final-answer') {
      throw new TypeError('reject-answer applies to a final answer only');
    }
    found.push([effect, callId, message]);
  }
  return found;
}

/** Prefixes each message with `INSTRUCTION FOLLOWING ERROR: <NAME> NOT FOLLOWED! ` (once). */
function stampVerdicts(found, name) {
  const head = FOLLOWING_ERROR_PREFIX + name + ' NOT FOLLOWED! ';
  for (let position = 0; position < found.length; position++) {
    if (!found[position][2].startsWith(FOLLOWING_ERROR_PREFIX)) found[position][2] = head + found[position][2];
  }
  return found;
}

/**
 * Runs one validator (`slot` = { name, check, state }) on a step: its stamped verdicts as [effect, callId,
 * message] triples, its state advanced. When its code fails: one [['error', null, why]] and `slot.failed`.
 */
function checkSlot(slot, step) {
  try {
    const result = slot.check(slot.state, step);
    const found = stampVerdicts(readVerdicts(result, step), slot.name);
    slot.state = result.state;
    return found;
  } catch (error) {
    slot.failed = true;
    return [['error', null, 'check failed: ' + describeError(error)]];
  }
}
