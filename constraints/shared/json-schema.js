/* exported parseArguments, schemaIssues, callArguments, callIssues, useTools */
/* global vendor, setFloatLiteralTest */
'use strict';
// Shared by the three toolset validators: parse a call's raw arguments and check them against the tool's
// JSON Schema with @cfworker/json-schema (a standard validator, bundled into the isolate by
// src/validator/isolate-source.ts; draft 2020-12), then turn its errors into our messages. Each issue has a
// kind so every toolset category reports only its own: `extra` and `range` (available_tools), `missing`
// (required_parameters), `type` (parameter_types).
//
// Two rules are CCTU's, applied to the schema before it is compiled: an object schema that declares its
// properties (or says it is an object) and says nothing of `additionalProperties` accepts no other argument
// (CCTU blocks arguments a tool does not declare), and `format` is not checked. One is applied to the value:
// a number written with a fraction or an exponent (`2.0`, `2e0`) is not an integer, as for Python's json
// (read from the raw text: the parsed value cannot tell 2.0 from 2).

// The three toolset validators ask about the same calls in turn: parse and check each call once. A short
// list of recent calls by identity beats a WeakMap here (a step has 1-3 calls). Built-in validators only
// read the cached results; a custom constraint runs in a context of its own with its own copy of this file.
const CACHE_SIZE = 8;
let cachedCalls = [];
let cachedEntries = [];
// The task's tools, set by the runtime (`useTools` is not on `lib`), so whoever asks about a call gets the
// answer for the schema of the tool the call names. A tool's schema is compiled when a call first names
// it, not when the episode starts: an episode pays only for the tools it calls, and no step pays for all.
let toolSchemas = Object.create(null);
let toolChecks = Object.create(null);
const NO_FLOATS = function () { return false; };

/** Called by the runtime when an episode's validators are built. */
function useTools(tools) {
  toolSchemas = Object.create(null);
  toolChecks = Object.create(null);
  for (const tool of tools) toolSchemas[tool.name] = tool.parameters;
  cachedCalls = [];
  cachedEntries = [];
}

/** The compiled check of the tool `name` (null: its schema constrains nothing), undefined for a tool the task does not have. */
function toolCheck(name) {
  if (name in toolChecks) return toolChecks[name];
  if (!(name in toolSchemas)) return undefined;
  toolChecks[name] = prepare(toolSchemas[name]);
  return toolChecks[name];
}

/**
 * The call's arguments as an object, or `{ error }` saying why they are not one.
 * An empty string counts as `{}`: some providers send it for a call without arguments.
 */
function parseArguments(text) {
  if (text.trim() === '') return { value: {} };
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: 'are not valid JSON (' + String(error && error.message) + ')' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { error: 'are not a JSON object (got ' + jsonType(value) + ')' };
  }
  return { value: value };
}

/** Issues of `value` against `schema`: [{ kind, path, text }], `path` '' for the arguments object itself. */
function schemaIssues(schema, value) {
  return issuesOf(prepare(schema), value, null);
}

/** parseArguments of a step's call, computed once per call object. */
function callArguments(call) {
  const entry = cacheEntry(call);
  if (entry.parsed === undefined) entry.parsed = parseArguments(call.arguments);
  return entry.parsed;
}

/**
 * The issues of a step's call against the schema of the tool it names, computed once per call object;
 * null for an unknown tool or arguments that do not parse.
 */
function callIssues(call) {
  const entry = cacheEntry(call);
  if (entry.issues === undefined) {
    const parsed = callArguments(call);
    const check = toolCheck(call.name);
    entry.issues = parsed.error !== undefined || check === undefined ? null : issuesOf(check, parsed.value, floatLiterals(call.arguments));
  }
  return entry.issues;
}

function cacheEntry(call) {
  for (let index = 0; index < cachedCalls.length; index++) if (cachedCalls[index] === call) return cachedEntries[index];
  const entry = { parsed: undefined, issues: undefined };
  if (cachedCalls.length === CACHE_SIZE) {
    cachedCalls.shift();
    cachedEntries.shift();
  }
  cachedCalls.push(call);
  cachedEntries.push(entry);
  return entry;
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function validPattern(pattern) {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

const SUBSCHEMA = ['additionalProperties', 'items', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const SUBSCHEMA_LISTS = ['prefixItems', 'anyOf', 'oneOf', 'allOf'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/** A copy of `schema` with CCTU's rules applied (see the top of this file), at every level. */
function closeObjects(schema) {
  if (!isPlainObject(schema)) return schema;
  const out = {};
  for (const key of Object.keys(schema)) out[key] = schema[key];
  delete out.format;
  // A tool schema with a pattern the validator cannot compile constrains nothing there.
  if (out.pattern !== undefined && (typeof out.pattern !== 'string' || !validPattern(out.pattern))) delete out.pattern;
  if (Array.isArray(out.items)) {
    // Draft-7 tuples, as 2020-12 spells them.
    out.prefixItems = out.items;
    if (out.additionalItems !== undefined) out.items = out.additionalItems;
    else delete out.items;
    delete out.additionalItems;
  }
  if (out.additionalProperties === undefined && (isPlainObject(out.properties) || out.type === 'object')) out.additionalProperties = false;
  for (const key of SUBSCHEMA) if (isPlainObject(out[key])) out[key] = closeObjects(out[key]);
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(out[key])) out[key] = out[key].map(closeObjects);
  for (const key of SUBSCHEMA_MAPS) {
    if (!isPlainObject(out[key])) continue;
    const map = {};
    for (const name of Object.keys(out[key])) {
      if (key === 'patternProperties' && !validPattern(name)) continue;
      map[name] = closeObjects(out[key][name]);
    }
    out[key] = map;
  }
  return out;
}

/** A schema ready to check values with: null accepts anything. */
function prepare(schema) {
  if (!isPlainObject(schema) && typeof schema !== 'boolean') return null;
  const closed = closeObjects(JSON.parse(JSON.stringify(schema)));
  // Outside the try: a library that failed to set up (vendor() runs it on first use) is an error, not a schema
  // that constrains nothing, and the tool's check is not cached, so the next call sets it up again.
  const Validator = vendor().Validator;
  try {
    return { schema: closed, validator: new Validator(closed, '2020-12', false) };
  } catch {
    return null; // a schema the validator cannot read (a duplicate $id) constrains nothing
  }
}

function issuesOf(check, value, floats) {
  if (check === null) return [];
  let result;
  setFloatLiteralTest(floats === null ? NO_FLOATS : function (location) { return floats[location] === true; });
  try {
    result = check.validator.validate(value);
  } catch (error) {
    return [{ kind: 'type', path: '', text: 'could not be checked against the schema (' + String(error && error.message) + ')' }];
  } finally {
    setFloatLiteralTest(NO_FLOATS);
  }
  return result.valid ? [] : describe(result.errors, check.schema, value, floats);
}

// cfworker's instance and keyword locations are URI fragments of JSON pointers.
function encodePointer(key) {
  return encodeURI(String(key).replace(/~/g, '~0').replace(/\//g, '~1')).replace(/#/g, '%23');
}

function decodePointer(location) {
  if (location === '#' || location === '') return [];
  return location.slice(2).split('/').map(function (segment) {
    return decodeURI(segment).replace(/%23/g, '#').replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

/** The value (or schema) at a location, and our path of it: `options.precision`, `tags[1]`. */
function locate(root, location) {
  let node = root;
  let path = '';
  for (const segment of decodePointer(location)) {
    if (Array.isArray(node)) {
      path += '[' + segment + ']';
      node = node[Number(segment)];
    } else {
      path = path === '' ? segment : path + '.' + segment;
      node = node !== null && typeof node === 'object' ? node[segment] : undefined;
    }
  }
  return { node: node, path: path };
}

/** Errors inside an alternative of anyOf/oneOf or under `not` are summed up by that keyword's own error. */
function nested(keywordLocation) {
  return /\/(?:anyOf|oneOf)\/\d+\/|\/not\//.test(keywordLocation);
}

/** The property named in cfworker's `… property "name" …` message. */
function quotedName(text) {
  const match = /[Pp]roperty "([\s\S]*)"/.exec(text);
  return match === null ? '' : match[1];
}

const AGGREGATE = ['properties', 'patternProperties', 'items', 'prefixItems', 'additionalItems', 'allOf', '$ref', '$recursiveRef', 'false', 'dependentSchemas', 'unevaluatedItems', 'unevaluatedProperties', 'if', 'then', 'else'];

function describe(errors, schema, value, floats) {
  const issues = [];
  const typed = Object.create(null);
  const denied = Object.create(null);
  for (const error of errors) if (error.keyword === 'false') denied[error.instanceLocation] = true;
  for (const error of errors) {
    if (nested(error.keywordLocation) || AGGREGATE.indexOf(error.keyword) >= 0) continue;
    const at = locate(value, error.instanceLocation);
    const keywordValue = locate(schema, error.keywordLocation).node;
    const got = at.node;
    const push = function (kind, path, text) { issues.push({ kind: kind, path: path, text: text, location: error.instanceLocation }); };
    switch (error.keyword) {
      case 'required': {
        const name = quotedName(error.error);
        push('missing', at.path === '' ? name : at.path + '.' + name, 'is required but missing');
        break;
      }
      case 'additionalProperties': {
        const name = quotedName(error.error);
        if (denied[error.instanceLocation + '/' + encodePointer(name)] !== true) break; // its own schema reported it
        const parent = locate(schema, error.keywordLocation.slice(0, error.keywordLocation.lastIndexOf('/'))).node;
        const accepted = parent !== null && typeof parent === 'object' && isPlainObject(parent.properties) ? Object.keys(parent.properties) : [];
        push('extra', at.path === '' ? name : at.path + '.' + name, 'is not an accepted argument (accepted: ' + (accepted.length > 0 ? accepted.join(', ') : 'none') + ')');
        break;
      }
      case 'type': {
        typed[error.instanceLocation] = true;
        const types = Array.isArray(keywordValue) ? keywordValue : [keywordValue];
        const written = floats !== null && floats[error.instanceLocation] === true ? 'number ' + JSON.stringify(got) + ' (written with a fraction or exponent)' : jsonType(got) + ' ' + show(got);
        push('type', at.path, 'must be of type ' + types.join(' or ') + '; got ' + written);
        break;
      }
      case 'anyOf':
      case 'oneOf':
        typed[error.instanceLocation] = true;
        push('type', at.path, 'must match ' + (error.keyword === 'oneOf' ? 'exactly one' : 'one') + ' of its ' + (Array.isArray(keywordValue) ? keywordValue.length : '') + ' allowed forms; got ' + show(got));
        break;
      default:
        push('range', at.path, rangeText(error, keywordValue, got));
    }
  }
  // Range checks on a value of the wrong type would only repeat the same mistake.
  const kept = [];
  for (const issue of issues) {
    if (!(issue.kind === 'range' && typed[issue.location] === true)) kept.push({ kind: issue.kind, path: issue.path, text: issue.text });
  }
  return kept;
}

function rangeText(error, limit, got) {
  switch (error.keyword) {
    case 'enum':
      return 'must be one of ' + (Array.isArray(limit) ? limit.map(show).join(', ') : '') + '; got ' + show(got);
    case 'const':
      return 'must be ' + JSON.stringify(limit) + '; got ' + show(got);
    case 'minimum':
      return 'must be at least ' + limit + '; got ' + got;
    case 'maximum':
      return 'must be at most ' + limit + '; got ' + got;
    case 'exclusiveMinimum':
      return 'must be greater than ' + limit + '; got ' + got;
    case 'exclusiveMaximum':
      return 'must be less than ' + limit + '; got ' + got;
    case 'minLength':
      return 'must have at least ' + limit + ' characters; got ' + Array.from(String(got)).length;
    case 'maxLength':
      return 'must have at most ' + limit + ' characters; got ' + Array.from(String(got)).length;
    case 'pattern':
      return 'must match the pattern ' + limit + '; got ' + show(got);
    case 'minItems':
      return 'must have at least ' + limit + ' items; got ' + (Array.isArray(got) ? got.length : 0);
    case 'maxItems':
      return 'must have at most ' + limit + ' items; got ' + (Array.isArray(got) ? got.length : 0);
    default:
      return 'breaks its schema\'s `' + error.keyword + '` (' + error.error + ')';
  }
}

function jsonType(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function show(value) {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 60 ? text.slice(0, 57) + '...' : String(text);
}

/**
 * Locations (cfworker's form, `#/a/0`) of numbers the raw text writes with a fraction or an exponent
 * although their value is whole (`2.0`, `1e3`): Python's json reads them as floats. null when there are none.
 * Only called on text JSON.parse accepted.
 */
function floatLiterals(text) {
  if (!/[0-9][.eE]/.test(text)) return null;
  const found = Object.create(null);
  let any = false;
  let position = 0;
  const space = /[ \t\n\r]*/y;
  const stringToken = /"(?:[^"\\]|\\.)*"/y;
  const scalarToken = /-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null/y;
  function skip() {
    space.lastIndex = position;
    space.exec(text);
    position = space.lastIndex;
  }
  function readString() {
    stringToken.lastIndex = position;
    const match = stringToken.exec(text);
    position = stringToken.lastIndex;
    return JSON.parse(match[0]);
  }
  // An explicit stack, not recursion: arguments nested 10,000 deep must not overflow the isolate's stack.
  const stack = [];
  let location = '#';
  for (;;) {
    skip();
    const character = text[position];
    if (character === '{' || character === '[') {
      position += 1;
      skip();
      if (text[position] === (character === '{' ? '}' : ']')) {
        position += 1;
      } else {
        const frame = { object: character === '{', index: 0, base: location };
        stack.push(frame);
        if (frame.object) {
          const key = readString();
          skip();
          position += 1; // ':'
          location = frame.base + '/' + encodePointer(key);
        } else {
          location = frame.base + '/0';
        }
        continue;
      }
    } else if (character === '"') {
      readString();
    } else {
      scalarToken.lastIndex = position;
      const match = scalarToken.exec(text);
      position = scalarToken.lastIndex;
      if (match !== null && (match[1] !== undefined || match[2] !== undefined) && Number.isInteger(Number(match[0]))) {
        found[location] = true;
        any = true;
      }
    }
    // After a value: the next member of the enclosing container, or close it (and maybe its parents).
    for (;;) {
      if (stack.length === 0) return any ? found : null;
      const frame = stack[stack.length - 1];
      skip();
      if (text[position] === ',') {
        position += 1;
        skip();
        frame.index += 1;
        if (frame.object) {
          const key = readString();
          skip();
          position += 1;
          location = frame.base + '/' + encodePointer(key);
        } else {
          location = frame.base + '/' + frame.index;
        }
        break;
      }
      position += 1; // '}' or ']'
      stack.pop();
    }
  }
}
