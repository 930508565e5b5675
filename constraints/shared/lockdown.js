/* exported lockDown */
'use strict';
// Validators are deterministic reducers: no clock, no randomness and nothing that runs later, so
// re-validating a saved trajectory gives the same verdicts every time. `lockDown` runs before any
// validator code: Math.random and Date throw (an `error` verdict for the constraint that called them),
// the garbage collector's callbacks (FinalizationRegistry, WeakRef) are gone, and every intrinsic and the
// global object are frozen, those reachable only through syntax too.

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

function lockDown(extra) {
  Math.random = function random() {
    throw new Error('Math.random is not available to constraints: a validator must be deterministic');
  };
  globalThis.Date = function Date() {
    throw new Error('Date is not available to constraints: a validator must be deterministic');
  };
  globalThis.Date.now = globalThis.Date;
  for (const name of ['FinalizationRegistry', 'WeakRef', 'SharedArrayBuffer', 'Atomics']) delete globalThis[name];
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
    extra,
  ]);
}
