/* exported parseArguments, schemaIssues, callArguments, callIssues, useTools */
'use strict';
// Shared by the three toolset validators: parse a call's raw arguments and compare them with the tool's
// JSON Schema (the subset MCP tools use: type, properties, required, additionalProperties, items,
// prefixItems, enum, const, ranges, lengths, pattern, anyOf/oneOf). Each issue has a kind so every
// toolset category reports only its own: `extra` and `range` (available_tools), `missing`
// (required_parameters), `type` (parameter_types).
//
// This runs on every call of every step, so a schema is compiled once (per task) into nodes of one
// shape, and a walk over valid arguments allocates nothing but the issues list.

// The three toolset validators ask about the same calls in turn: parse and walk each call once. A short
// list of recent calls by identity beats a WeakMap here (a step has 1-3 calls). Built-in validators only
// read the cached results; custom code gets copies (runtime.js), so it cannot change what others read.
const CACHE_SIZE = 8;
let cachedCalls = [];
let cachedEntries = [];
// The task's tools, compiled; set by the runtime (`useTools` is not on `lib`), so whoever asks about a
// call gets the answer for the schema of the tool the call names.
let toolNodes = Object.create(null);

/** Called by the runtime when an episode's validators are built. */
function useTools(tools) {
  toolNodes = Object.create(null);
  for (const tool of tools) toolNodes[tool.name] = compile(JSON.parse(JSON.stringify(tool.parameters)));
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

/** Issues of `value` against `schema`: [{ kind, path, text }], `path` '' for the arguments object itself. */
function schemaIssues(schema, value) {
  const issues = [];
  visit(compile(schema), value, '', null, issues);
  return issues;
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
    const node = toolNodes[call.name];
    if (parsed.error !== undefined || node === undefined) {
      entry.issues = null;
    } else {
      const issues = [];
      visit(node, parsed.value, '', null, issues);
      entry.issues = issues;
    }
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

function number(value) {
  return typeof value === 'number' ? value : null;
}

/** A schema as a node of fixed shape; null accepts anything. */
function compile(schema) {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return null;
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  const properties = schema.properties !== null && typeof schema.properties === 'object' && !Array.isArray(schema.properties) ? schema.properties : null;
  const propertyNodes = Object.create(null);
  if (properties !== null) for (const key of Object.keys(properties)) propertyNodes[key] = compile(properties[key]);
  let pattern = null;
  if (typeof schema.pattern === 'string') {
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch {
      pattern = null; // a tool schema with an invalid pattern constrains nothing
    }
  }
  const additional = schema.additionalProperties;
  return {
    alternatives: alternatives !== null && alternatives.length > 0 ? alternatives.map(compile) : null,
    types: schema.type === undefined ? null : Array.isArray(schema.type) ? schema.type : [schema.type],
    enumValues: Array.isArray(schema.enum) ? schema.enum : null,
    constJson: schema.const === undefined ? null : JSON.stringify(schema.const),
    minimum: number(schema.minimum),
    maximum: number(schema.maximum),
    exclusiveMinimum: number(schema.exclusiveMinimum),
    exclusiveMaximum: number(schema.exclusiveMaximum),
    minLength: number(schema.minLength),
    maxLength: number(schema.maxLength),
    pattern: pattern,
    patternSource: typeof schema.pattern === 'string' ? schema.pattern : '',
    minItems: number(schema.minItems),
    maxItems: number(schema.maxItems),
    items: compile(schema.items),
    prefixItems: Array.isArray(schema.prefixItems) ? schema.prefixItems.map(compile) : [],
    properties: propertyNodes,
    propertyNames: properties === null ? [] : Object.keys(properties),
    required: Array.isArray(schema.required) ? schema.required.filter(function (name) { return typeof name === 'string'; }) : [],
    // CCTU blocks arguments a tool does not declare, so an absent `additionalProperties` means false
    // whenever the schema declares its properties (or says it is an object).
    additional: additional !== null && typeof additional === 'object' ? compile(additional) : null,
    denyExtra: !(additional !== null && typeof additional === 'object') && additional !== true && (properties !== null || schema.type === 'object'),
  };
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

/** The path of a value from its parent's path and its key (null: the value is the root). Built only for issues. */
function pathOf(parentPath, key) {
  if (key === null) return parentPath;
  return typeof key === 'number' ? parentPath + '[' + key + ']' : parentPath === '' ? key : parentPath + '.' + key;
}

function inEnum(allowed, value) {
  for (let index = 0; index < allowed.length; index++) {
    const option = allowed[index];
    if (option === value) return true;
    if (option !== null && typeof option === 'object' && JSON.stringify(option) === JSON.stringify(value)) return true;
  }
  return false;
}

function typeMatches(types, value) {
  for (let index = 0; index < types.length; index++) if (matchesType(types[index], value)) return true;
  return false;
}

function issue(issues, kind, parentPath, key, text) {
  issues.push({ kind: kind, path: pathOf(parentPath, key), text: text });
}

function visit(node, value, parentPath, key, issues) {
  if (node === null) return;
  if (node.alternatives !== null) {
    let fits = false;
    for (let index = 0; index < node.alternatives.length && !fits; index++) {
      const trial = [];
      visit(node.alternatives[index], value, '', null, trial);
      fits = trial.length === 0;
    }
    if (!fits) issue(issues, 'type', parentPath, key, 'must match one of its ' + node.alternatives.length + ' allowed forms; got ' + show(value));
  }
  if (node.types !== null && !typeMatches(node.types, value)) {
    // Range checks on a value of the wrong type would only repeat the same mistake.
    issue(issues, 'type', parentPath, key, 'must be of type ' + node.types.join(' or ') + '; got ' + jsonType(value) + ' ' + show(value));
    return;
  }
  if (node.enumValues !== null && !inEnum(node.enumValues, value)) {
    issue(issues, 'range', parentPath, key, 'must be one of ' + node.enumValues.map(show).join(', ') + '; got ' + show(value));
  }
  if (node.constJson !== null && node.constJson !== JSON.stringify(value)) {
    issue(issues, 'range', parentPath, key, 'must be ' + node.constJson + '; got ' + show(value));
  }
  if (typeof value === 'number') visitNumber(node, value, parentPath, key, issues);
  else if (typeof value === 'string') visitString(node, value, parentPath, key, issues);
  else if (Array.isArray(value)) visitArray(node, value, pathOf(parentPath, key), issues);
  else if (value !== null && typeof value === 'object') visitObject(node, value, pathOf(parentPath, key), issues);
}

function visitNumber(node, value, parentPath, key, issues) {
  if (node.minimum !== null && !(value >= node.minimum)) issue(issues, 'range', parentPath, key, 'must be at least ' + node.minimum + '; got ' + value);
  if (node.maximum !== null && !(value <= node.maximum)) issue(issues, 'range', parentPath, key, 'must be at most ' + node.maximum + '; got ' + value);
  if (node.exclusiveMinimum !== null && !(value > node.exclusiveMinimum)) issue(issues, 'range', parentPath, key, 'must be greater than ' + node.exclusiveMinimum + '; got ' + value);
  if (node.exclusiveMaximum !== null && !(value < node.exclusiveMaximum)) issue(issues, 'range', parentPath, key, 'must be less than ' + node.exclusiveMaximum + '; got ' + value);
}

function visitString(node, value, parentPath, key, issues) {
  if (node.minLength !== null || node.maxLength !== null) {
    const length = Array.from(value).length;
    if (node.minLength !== null && length < node.minLength) issue(issues, 'range', parentPath, key, 'must have at least ' + node.minLength + ' characters; got ' + length);
    if (node.maxLength !== null && length > node.maxLength) issue(issues, 'range', parentPath, key, 'must have at most ' + node.maxLength + ' characters; got ' + length);
  }
  if (node.pattern !== null && !node.pattern.test(value)) {
    issue(issues, 'range', parentPath, key, 'must match the pattern ' + node.patternSource + '; got ' + show(value));
  }
}

function visitArray(node, value, path, issues) {
  if (node.minItems !== null && value.length < node.minItems) issue(issues, 'range', path, null, 'must have at least ' + node.minItems + ' items; got ' + value.length);
  if (node.maxItems !== null && value.length > node.maxItems) issue(issues, 'range', path, null, 'must have at most ' + node.maxItems + ' items; got ' + value.length);
  for (let index = 0; index < value.length; index++) {
    visit(index < node.prefixItems.length ? node.prefixItems[index] : node.items, value[index], path, index, issues);
  }
}

function visitObject(node, value, path, issues) {
  for (let index = 0; index < node.required.length; index++) {
    const name = node.required[index];
    if (!Object.prototype.hasOwnProperty.call(value, name)) issue(issues, 'missing', path, name, 'is required but missing');
  }
  for (const key in value) {
    if (node.properties[key] !== undefined || (key in node.properties)) {
      visit(node.properties[key], value[key], path, key, issues);
    } else if (node.additional !== null) {
      visit(node.additional, value[key], path, key, issues);
    } else if (node.denyExtra) {
      const accepted = node.propertyNames;
      issue(issues, 'extra', path, key, 'is not an accepted argument (accepted: ' + (accepted.length > 0 ? accepted.join(', ') : 'none') + ')');
    }
  }
}
