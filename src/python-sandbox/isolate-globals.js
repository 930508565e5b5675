// Runs first inside the Python sandbox's isolate (plain JavaScript, no host API). It supplies the few globals
// Pyodide needs and an isolate lacks, each deterministic so a re-run sees exactly what the first run saw:
// a virtual clock (performance.now advances 1 µs a call; Date is frozen at __PY_EPOCH_MS), a seeded random source
// for crypto.getRandomValues (Python's os.urandom, random, uuid, hash seeds draw from it), UTF-8/UTF-16/latin1
// text codecs, synchronous WebAssembly compilation (async compilation of a large module never settles in an isolate),
// and d8-style `read`/`readbuffer` that serve only the Pyodide files handed in as __PY_FILES.
'use strict';
(function (global) {
  let files = global.__PY_FILES;
  // Pyodide's WebAssembly module, compiled once in the host (python-sandbox.ts): `readbuffer` hands the loader a
  // placeholder for the binary, and instantiating the placeholder instantiates the compiled module.
  let compiled = global.__PY_WASM.module;
  const wasmPlaceholder = new ArrayBuffer(8);
  delete global.__PY_WASM;
  const epoch = global.__PY_EPOCH_MS;
  const initialSeed = global.__PY_SEED | 0;
  let seed = initialSeed;
  delete global.__PY_FILES;
  delete global.__PY_EPOCH_MS;
  delete global.__PY_SEED;

  global.read = function read(path) {
    const file = files === null ? undefined : files[path];
    if (typeof file !== 'string') throw new Error('no such file: ' + path);
    return file;
  };
  global.readbuffer = function readbuffer(path) {
    if (path === '/pyodide/pyodide.asm.wasm' && files !== null) return wasmPlaceholder;
    const file = files === null ? undefined : files[path];
    if (!(file instanceof SharedArrayBuffer)) throw new Error('no such file: ' + path);
    return file;
  };
  // The shell detection of Pyodide's loader wants `load` to exist; nothing may call it.
  global.load = function load() {
    throw new Error('load is not available in the Python sandbox');
  };

  let ticks = 0;
  // Called once after boot: a sandbox booted from scratch and one restored from a snapshot continue alike, and the
  // Pyodide files are let go (the WASM binary and the stdlib zip are copied into the module by then).
  global.__PY_RESET = function () {
    seed = initialSeed;
    ticks = 0;
    files = null;
    compiled = null;
    delete global.__PY_RESET;
  };
  global.performance = { now: () => (ticks += 0.001), timeOrigin: epoch };
  const RealDate = Date;
  function FrozenDate(...args) {
    if (!new.target) return new RealDate(epoch).toString();
    return args.length === 0 ? new RealDate(epoch) : new RealDate(...args);
  }
  FrozenDate.prototype = RealDate.prototype;
  FrozenDate.now = () => epoch;
  FrozenDate.parse = RealDate.parse;
  FrozenDate.UTC = RealDate.UTC;
  global.Date = FrozenDate;

  // mulberry32, one byte per step: deterministic for a given seed. (The host's generators share databases/seeded-random.ts;
  // this script runs alone inside the isolate, with no module to import, and keeps its own copy of the step.)
  global.crypto = {
    getRandomValues(array) {
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let i = 0; i < bytes.length; i++) {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = seed;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        bytes[i] = (t ^ (t >>> 14)) & 255;
      }
      return array;
    },
  };

  const syncInstantiate = (source, imports) => {
    if (source instanceof WebAssembly.Module) return new WebAssembly.Instance(source, imports);
    if (compiled !== null && bytesOf(source).buffer === wasmPlaceholder) return { module: compiled, instance: new WebAssembly.Instance(compiled, imports) };
    const module = new WebAssembly.Module(source);
    return { module, instance: new WebAssembly.Instance(module, imports) };
  };
  WebAssembly.compile = async (source) => new WebAssembly.Module(source);
  WebAssembly.instantiate = async (source, imports) => syncInstantiate(source, imports);

  function bytesOf(input) {
    if (input === undefined) return new Uint8Array(0);
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer) return new Uint8Array(input);
    return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  }

  // WHATWG UTF-8 decode: maximal subpart replacement with U+FFFD, or a TypeError when fatal.
  function decodeUtf8(bytes, fatal, ignoreBOM) {
    let out = '';
    let chunk = [];
    let i = 0;
    if (!ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
    const bad = () => {
      if (fatal) throw new TypeError('The encoded data was not valid for encoding utf-8');
      chunk.push(0xfffd);
    };
    while (i < bytes.length) {
      const b = bytes[i];
      if (b < 0x80) {
        chunk.push(b);
        i += 1;
      } else {
        let need;
        let cp;
        let lower = 0x80;
        let upper = 0xbf;
        if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
        else if (b >= 0xe0 && b <= 0xef) { need = 2; cp = b & 0x0f; if (b === 0xe0) lower = 0xa0; if (b === 0xed) upper = 0x9f; }
        else if (b >= 0xf0 && b <= 0xf4) { need = 3; cp = b & 0x07; if (b === 0xf0) lower = 0x90; if (b === 0xf4) upper = 0x8f; }
        else { bad(); i += 1; continue; }
        let j = 1;
        for (; j <= need; j++) {
          const c = bytes[i + j];
          if (c === undefined || c < lower || c > upper) break;
          lower = 0x80;
          upper = 0xbf;
          cp = (cp << 6) | (c & 0x3f);
        }
        if (j <= need) { bad(); i += j; continue; }
        i += need + 1;
        if (cp > 0xffff) {
          cp -= 0x10000;
          chunk.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
        } else chunk.push(cp);
      }
      if (chunk.length > 8192) { out += String.fromCharCode.apply(null, chunk); chunk = []; }
    }
    return out + String.fromCharCode.apply(null, chunk);
  }

  function decodeUtf16le(bytes) {
    let out = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes[i] | (bytes[i + 1] << 8));
    return out;
  }

  function decodeLatin1(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
    return out;
  }

  const LABELS = { 'utf-8': 'utf-8', utf8: 'utf-8', 'unicode-1-1-utf-8': 'utf-8', 'utf-16le': 'utf-16le', 'utf-16': 'utf-16le', latin1: 'windows-1252', 'iso-8859-1': 'windows-1252', ascii: 'windows-1252', 'us-ascii': 'windows-1252', 'windows-1252': 'windows-1252' };
  global.TextDecoder = class TextDecoder {
    constructor(label = 'utf-8', options = {}) {
      const encoding = LABELS[String(label).trim().toLowerCase()];
      if (encoding === undefined) throw new RangeError('The encoding "' + label + '" is not supported');
      this.encoding = encoding;
      this.fatal = Boolean(options.fatal);
      this.ignoreBOM = Boolean(options.ignoreBOM);
    }
    decode(input) {
      const bytes = bytesOf(input);
      if (this.encoding === 'utf-8') return decodeUtf8(bytes, this.fatal, this.ignoreBOM);
      if (this.encoding === 'utf-16le') return decodeUtf16le(bytes);
      return decodeLatin1(bytes);
    }
  };

  function encodeUtf8(text, target) {
    let written = 0;
    let read = 0;
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      let units = 1;
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) { cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00); units = 2; }
      }
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
      const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (written + size > target.length) break;
      if (size === 1) target[written++] = cp;
      else if (size === 2) { target[written++] = 0xc0 | (cp >> 6); target[written++] = 0x80 | (cp & 63); }
      else if (size === 3) { target[written++] = 0xe0 | (cp >> 12); target[written++] = 0x80 | ((cp >> 6) & 63); target[written++] = 0x80 | (cp & 63); }
      else { target[written++] = 0xf0 | (cp >> 18); target[written++] = 0x80 | ((cp >> 12) & 63); target[written++] = 0x80 | ((cp >> 6) & 63); target[written++] = 0x80 | (cp & 63); }
      read += units;
      i += units - 1;
    }
    return { read, written };
  }

  global.TextEncoder = class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(text = '') {
      const input = String(text);
      const buffer = new Uint8Array(input.length * 3);
      const { written } = encodeUtf8(input, buffer);
      return buffer.slice(0, written);
    }
    encodeInto(text, target) {
      return encodeUtf8(String(text), target);
    }
  };
})(globalThis);
