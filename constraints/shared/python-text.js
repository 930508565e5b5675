/* exported pythonStrip, pythonSplit, pythonRepr, pythonJsonLoads, PyInt, PyFloat, PyDict */
'use strict';
// Python's own text rules, for the checks that must say exactly what CCTU's Python checker says
// (github Junjie-Ye/CCTU, utils/constraint_checker/): `str.strip()` and `str.split()` (white space is
// `str.isspace`, not JavaScript's `\s`), `repr()` of what `json.loads` returns, and `json.loads` itself —
// CPython's C scanner (Modules/_json.c: scan_once_unicode, _parse_object_unicode, _parse_array_unicode,
// scanstring_unicode, _match_number_unicode) with its error messages, `Expecting value: line 1 column 1
// (char 0)`. Positions count code points, as Python's str does. The messages are those of Python 3.8-3.12
// (3.13 words a trailing comma differently).

const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const EDGES = new RegExp('^[' + PY_SPACE + ']+|[' + PY_SPACE + ']+$', 'gu');
const RUNS = new RegExp('[' + PY_SPACE + ']+', 'u');

/** Python's `text.strip()`. */
function pythonStrip(text) {
  return text.replace(EDGES, '');
}

/** Python's `text.split()`: the words between runs of white space. */
function pythonSplit(text) {
  return text.split(RUNS).filter(function (word) { return word !== ''; });
}

/** A Python int (any size: its decimal digits). */
class PyInt {
  constructor(digits) { this.digits = digits; }
}
/** A Python float. */
class PyFloat {
  constructor(value) { this.value = value; }
}
/** A Python dict: keys in insertion order (a repeated key keeps its place and takes the later value). */
class PyDict {
  constructor() { this.map = new Map(); }
}

function reprString(text) {
  const quote = text.indexOf("'") >= 0 && text.indexOf('"') < 0 ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === quote || char === '\\') out += '\\' + char;
    else if (char === '\t') out += '\\t';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0');
    else if (char !== ' ' && /^[\p{C}\p{Z}]$/u.test(char)) {
      // Not printable (str.isprintable): other, separators but the space.
      if (code < 0x100) out += '\\x' + code.toString(16).padStart(2, '0');
      else if (code < 0x10000) out += '\\u' + code.toString(16).padStart(4, '0');
      else out += '\\U' + code.toString(16).padStart(8, '0');
    } else out += char;
  }
  return out + quote;
}

/** Python's repr of a float: the shortest digits, fixed notation for exponents -4 ≤ e < 16, else d.ddde±XX. */
function reprFloat(value) {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const point = Number(exponentText) + 1; // value = 0.<digits> × 10^point
  if (point > -4 && point <= 16) {
    if (point <= 0) return sign + '0.' + '0'.repeat(-point) + digits;
    if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length) + '.0';
    return sign + digits.slice(0, point) + '.' + digits.slice(point);
  }
  const exponent = point - 1;
  const body = digits.length === 1 ? digits : digits[0] + '.' + digits.slice(1);
  return sign + body + 'e' + (exponent < 0 ? '-' : '+') + String(Math.abs(exponent)).padStart(2, '0');
}

/** Python's `repr()` of a value as pythonJsonLoads returns it (or of plain strings, booleans, null, arrays). */
function pythonRepr(value) {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return reprString(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : reprFloat(value);
  if (value instanceof PyInt) return value.digits;
  if (value instanceof PyFloat) return reprFloat(value.value);
  if (Array.isArray(value)) return '[' + value.map(pythonRepr).join(', ') + ']';
  if (value instanceof PyDict) {
    const parts = [];
    for (const [key, item] of value.map) parts.push(reprString(key) + ': ' + pythonRepr(item));
    return '{' + parts.join(', ') + '}';
  }
  return String(value);
}

class DecodeError extends Error {}
/** Thrown where CPython raises StopIteration(idx): raw_decode turns it into "Expecting value". */
class NoValue {
  constructor(at) { this.at = at; }
}

function fail(message, chars, at) {
  let line = 1;
  let lastNewline = -1;
  for (let index = 0; index < at; index++) {
    if (chars[index] === '\n') {
      line += 1;
      lastNewline = index;
    }
  }
  throw new DecodeError(message + ': line ' + line + ' column ' + (at - lastNewline) + ' (char ' + at + ')');
}

const isJsonSpace = function (char) { return char === ' ' || char === '\t' || char === '\n' || char === '\r'; };
const isDigit = function (char) { return char !== undefined && char >= '0' && char <= '9'; };
const ESCAPES = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function hexAt(chars, from, end) {
  let code = 0;
  for (let index = from; index < end; index++) {
    const digit = parseInt(chars[index], 16);
    if (!/^[0-9a-fA-F]$/.test(chars[index])) return -1;
    code = code * 16 + digit;
  }
  return code;
}

/** scanstring_unicode (strict): `begin` is just after the opening quote; returns [text, index after the quote]. */
function scanString(chars, begin) {
  const length = chars.length;
  let out = '';
  let next = begin;
  for (;;) {
    let char;
    for (;;) {
      if (next >= length) fail('Unterminated string starting at', chars, begin - 1);
      char = chars[next];
      if (char === '"' || char === '\\') break;
      if (char.codePointAt(0) <= 0x1f) fail('Invalid control character at', chars, next);
      out += char;
      next += 1;
    }
    if (char === '"') return [out, next + 1];
    next += 1;
    if (next === length) fail('Unterminated string starting at', chars, begin - 1);
    char = chars[next];
    if (char !== 'u') {
      if (ESCAPES[char] === undefined) fail('Invalid \\escape', chars, next - 1);
      out += ESCAPES[char];
      next += 1;
      continue;
    }
    next += 1;
    let end = next + 4;
    if (end >= length) fail('Invalid \\uXXXX escape', chars, next - 1);
    let code = hexAt(chars, next, end);
    if (code < 0) fail('Invalid \\uXXXX escape', chars, end - 5);
    next = end;
    if (code >= 0xd800 && code <= 0xdbff && end + 6 < length && chars[next] === '\\' && chars[next + 1] === 'u') {
      const low = hexAt(chars, next + 2, end + 6);
      if (low < 0) fail('Invalid \\uXXXX escape', chars, end + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        end += 6;
      }
    }
    out += String.fromCodePoint(code);
    next = end;
  }
}

function skipSpace(chars, index) {
  while (index < chars.length && isJsonSpace(chars[index])) index += 1;
  return index;
}

function word(chars, at, text) {
  return chars.slice(at, at + text.length).join('') === text && at + text.length - 1 < chars.length;
}

/** _match_number_unicode: [value, next index], or NoValue. */
function scanNumber(chars, start) {
  const last = chars.length - 1;
  let index = start;
  if (chars[index] === '-') {
    index += 1;
    if (index > last) throw new NoValue(start);
  }
  if (chars[index] >= '1' && chars[index] <= '9') {
    index += 1;
    while (index <= last && isDigit(chars[index])) index += 1;
  } else if (chars[index] === '0') index += 1;
  else throw new NoValue(start);
  let isFloat = false;
  if (index < last && chars[index] === '.' && isDigit(chars[index + 1])) {
    isFloat = true;
    index += 2;
    while (index <= last && isDigit(chars[index])) index += 1;
  }
  if (index < last && (chars[index] === 'e' || chars[index] === 'E')) {
    const eStart = index;
    index += 1;
    if (index < last && (chars[index] === '-' || chars[index] === '+')) index += 1;
    while (index <= last && isDigit(chars[index])) index += 1;
    if (isDigit(chars[index - 1])) isFloat = true;
    else index = eStart;
  }
  const text = chars.slice(start, index).join('');
  if (isFloat) return [new PyFloat(Number(text)), index];
  const digits = text.replace(/^(-?)0+(?=\d)/, '$1');
  return [new PyInt(digits === '-0' ? '0' : digits), index];
}

/** scan_once_unicode: [value, next index]. */
function scanValue(chars, at) {
  if (at >= chars.length) throw new NoValue(at);
  const char = chars[at];
  if (char === '"') return scanString(chars, at + 1);
  if (char === '{') return scanObject(chars, at + 1);
  if (char === '[') return scanArray(chars, at + 1);
  if (char === 'n' && word(chars, at, 'null')) return [null, at + 4];
  if (char === 't' && word(chars, at, 'true')) return [true, at + 4];
  if (char === 'f' && word(chars, at, 'false')) return [false, at + 5];
  if (char === 'N' && word(chars, at, 'NaN')) return [new PyFloat(NaN), at + 3];
  if (char === 'I' && word(chars, at, 'Infinity')) return [new PyFloat(Infinity), at + 8];
  if (char === '-' && word(chars, at, '-Infinity')) return [new PyFloat(-Infinity), at + 9];
  return scanNumber(chars, at);
}

function scanObject(chars, at) {
  const dict = new PyDict();
  let index = skipSpace(chars, at);
  if (index >= chars.length || chars[index] !== '}') {
    for (;;) {
      if (index >= chars.length || chars[index] !== '"') fail('Expecting property name enclosed in double quotes', chars, index);
      const [key, afterKey] = scanString(chars, index + 1);
      index = skipSpace(chars, afterKey);
      if (index >= chars.length || chars[index] !== ':') fail("Expecting ':' delimiter", chars, index);
      index = skipSpace(chars, index + 1);
      const [value, afterValue] = scanValue(chars, index);
      dict.map.set(key, value);
      index = skipSpace(chars, afterValue);
      if (index < chars.length && chars[index] === '}') break;
      if (index >= chars.length || chars[index] !== ',') fail("Expecting ',' delimiter", chars, index);
      index = skipSpace(chars, index + 1);
    }
  }
  return [dict, index + 1];
}

function scanArray(chars, at) {
  const list = [];
  let index = skipSpace(chars, at);
  if (index >= chars.length || chars[index] !== ']') {
    for (;;) {
      const [value, afterValue] = scanValue(chars, index);
      list.push(value);
      index = skipSpace(chars, afterValue);
      if (index < chars.length && chars[index] === ']') break;
      if (index >= chars.length || chars[index] !== ',') fail("Expecting ',' delimiter", chars, index);
      index = skipSpace(chars, index + 1);
    }
  }
  return [list, index + 1];
}

/**
 * Python's `json.loads(text)`: { value } (dicts as PyDict, ints as PyInt, floats as PyFloat; strings, lists,
 * booleans and None as JavaScript's), or { error } with the text of the JSONDecodeError.
 */
function pythonJsonLoads(text) {
  const chars = Array.from(text);
  try {
    if (chars[0] === '\ufeff') fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', chars, 0);
    const start = skipSpace(chars, 0);
    let result;
    try {
      result = scanValue(chars, start);
    } catch (error) {
      if (error instanceof NoValue) fail('Expecting value', chars, error.at);
      throw error;
    }
    const end = skipSpace(chars, result[1]);
    if (end !== chars.length) fail('Extra data', chars, end);
    return { value: result[0] };
  } catch (error) {
    if (error instanceof DecodeError) return { error: error.message };
    throw error;
  }
}
