/* exported parseArguments, schemaIssues, callArguments, callIssues, useTools */
'use strict';
// Shared by the three toolset validators: parse a call's raw arguments and compare them with the tool's
// JSON Schema (the subset MCP tools use: type, properties, required, additionalProperties, items,
// prefixItems, enum, const, ranges, lengths, pattern, anyOf/oneOf). Each issue has a kind so every
// toolset category reports only its own: `extra` and `range` (available_tools), `missing`
// (required_parameters), `type` (parameter_types).

// The three toolset validators look at the same calls: parse each call's arguments and walk its schema
// once per step, keyed by the (frozen) call object. Results are frozen, so no validator can change what
// the others read.
// A few recent calls by identity: a step has 1-3 calls and the validators ask about them in turn, so a
// short list beats a WeakMap (whose entries for fresh keys cost more than the parse they save).
const CACHE_SIZE = 8;
let cachedCalls = [];
let cachedEntries = [];
// The task's tool schemas, set by the runtime (not by validators: `useTools` is not on `lib`), so every
// validator that asks about a call gets the answer for the tool the call names.
let toolSchemas = Object.create(null);

/** Called by the runtime when an episode's validators are built. */
function useTools(tools) {
  toolSchemas = Object.create(null);
  for (const tool of tools) toolSchemas[tool.name] = deepFreeze(JSON.parse(JSON.stringify(tool.parameters)));
  cachedCalls = [];
  cachedEntries = [];
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

function jsonType(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(type, value) {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return true; // an unknown type keyword constrains nothing
  }
}

function show(value) {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 60 ? text.slice(0, 57) + '...' : String(text);
}

function childPath(path, key) {
  return typeof key === 'number' ? path + '[' + key + ']' : path === '' ? key : path + '.' + key;
}

/** Issues of `value` against `schema`: [{ kind, path, text }], `path` '' for the arguments object itself. */
function schemaIssues(schema, value) {
  const issues = [];
  visit(schema, value, '', issues);
  return issues;
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
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

/** parseArguments of a step's call, computed once per call object. */
function callArguments(call) {
  const entry = cacheEntry(call);
  if (entry.parsed === undefined) entry.parsed = deepFreeze(parseArguments(call.arguments));
  return entry.parsed;
}

/**
 * schemaIssues of a step's call against the schema of the tool it names, computed once per call object;
 * null for an unknown tool or arguments that do not parse.
 */
function callIssues(call) {
  const entry = cacheEntry(call);
  if (entry.issues === undefined) {
    const parsed = callArguments(call);
    const schema = toolSchemas[call.name];
    entry.issues = parsed.error !== undefined || schema === undefined ? null : deepFreeze(schemaIssues(schema, parsed.value));
  }
  return entry.issues;
}

function visit(schema, value, path, issues) {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (alternatives !== null && alternatives.length > 0) {
    const fits = alternatives.some(function (alternative) { return schemaIssues(alternative, value).length === 0; });
    if (!fits) issues.push({ kind: 'type', path: path, text: 'must match one of its ' + alternatives.length + ' allowed forms; got ' + show(value) });
  }
  if (schema.type !== undefined && !typeMatches(schema.type, value)) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    issues.push({ kind: 'type', path: path, text: 'must be of type ' + types.join(' or ') + '; got ' + jsonType(value) + ' ' + show(value) });
    return; // range checks on a value of the wrong type would only repeat the same mistake
  }
  if (Array.isArray(schema.enum) && !inEnum(schema.enum, value)) {
    issues.push({ kind: 'range', path: path, text: 'must be one of ' + schema.enum.map(show).join(', ') + '; got ' + show(value) });
  }
  if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    issues.push({ kind: 'range', path: path, text: 'must be ' + show(schema.const) + '; got ' + show(value) });
  }
  if (typeof value === 'number') visitNumber(schema, value, path, issues);
  else if (typeof value === 'string') visitString(schema, value, path, issues);
  else if (Array.isArray(value)) visitArray(schema, value, path, issues);
  else if (value !== null && typeof value === 'object') visitObject(schema, value, path, issues);
}

// Checks run on every call of every step: plain loops and comparisons, no allocation when all is well.
function typeMatches(type, value) {
  if (typeof type === 'string') return matchesType(type, value);
  for (let index = 0; index < type.length; index++) if (matchesType(type[index], value)) return true;
  return false;
}

function inEnum(allowed, value) {
  for (let index = 0; index < allowed.length; index++) {
    const option = allowed[index];
    if (option === value) return true;
    if (option !== null && typeof option === 'object' && JSON.stringify(option) === JSON.stringify(value)) return true;
  }
  return false;
}

function bound(issues, path, limit, holds, wording, value) {
  if (typeof limit === 'number' && !holds) issues.push({ kind: 'range', path: path, text: 'must be ' + wording + limit + '; got ' + value });
}

function visitNumber(schema, value, path, issues) {
  bound(issues, path, schema.minimum, value >= schema.minimum, 'at least ', value);
  bound(issues, path, schema.maximum, value <= schema.maximum, 'at most ', value);
  bound(issues, path, schema.exclusiveMinimum, value > schema.exclusiveMinimum, 'greater than ', value);
  bound(issues, path, schema.exclusiveMaximum, value < schema.exclusiveMaximum, 'less than ', value);
}

function visitString(schema, value, path, issues) {
  const length = schema.minLength === undefined && schema.maxLength === undefined ? 0 : Array.from(value).length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) {
    issues.push({ kind: 'range', path: path, text: 'must have at least ' + schema.minLength + ' characters; got ' + length });
  }
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) {
    issues.push({ kind: 'range', path: path, text: 'must have at most ' + schema.maxLength + ' characters; got ' + length });
  }
  if (typeof schema.pattern === 'string') {
    let pattern;
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch {
      pattern = null; // a tool schema with an invalid pattern constrains nothing
    }
    if (pattern !== null && !pattern.test(value)) {
      issues.push({ kind: 'range', path: path, text: 'must match the pattern ' + schema.pattern + '; got ' + show(value) });
    }
  }
}

function visitArray(schema, value, path, issues) {
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) {
    issues.push({ kind: 'range', path: path, text: 'must have at least ' + schema.minItems + ' items; got ' + value.length });
  }
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
    issues.push({ kind: 'range', path: path, text: 'must have at most ' + schema.maxItems + ' items; got ' + value.length });
  }
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  for (let index = 0; index < value.length; index++) {
    const itemSchema = index < prefix.length ? prefix[index] : schema.items;
    visit(itemSchema, value[index], childPath(path, index), issues);
  }
}

function visitObject(schema, value, path, issues) {
  const properties = schema.properties !== null && typeof schema.properties === 'object' ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of required) {
    if (!Object.prototype.hasOwnProperty.call(value, name)) {
      issues.push({ kind: 'missing', path: childPath(path, name), text: 'is required but missing' });
    }
  }
  // CCTU blocks arguments a tool does not declare, so an absent `additionalProperties` means false here
  // whenever the schema declares its properties.
  const declaresProperties = schema.properties !== undefined || schema.type === 'object';
  for (const key of Object.keys(value)) {
    if (Object.prototype.hasOwnProperty.call(properties, key)) {
      visit(properties[key], value[key], childPath(path, key), issues);
    } else if (schema.additionalProperties !== null && typeof schema.additionalProperties === 'object') {
      visit(schema.additionalProperties, value[key], childPath(path, key), issues);
    } else if (schema.additionalProperties !== true && declaresProperties) {
      const accepted = Object.keys(properties);
      issues.push({
        kind: 'extra',
        path: childPath(path, key),
        text: 'is not an accepted argument (accepted: ' + (accepted.length > 0 ? accepted.join(', ') : 'none') + ')',
      });
    }
  }
}
