/* exported NAME, init, check */
/* global lib */
'use strict';
// CCTU's argument check, exactly: github Junjie-Ye/CCTU, utils/constraint_checker/args_checker.py
// (ToolArgsChecker.check) and schema_validate.py (validate_param_value, _value_matches_json_type), on the
// tools as CCTU reads them (tool_specs.py, build_tools_doc: name → `function.parameters`). `params.tools` is
// the sample's `tools` field, the JSON text itself, read with Python's json rules (lib.pythonJsonLoads), so
// 2 and 2.0 stay an int and a float as they are for CCTU. One error per call, the first of: unknown tool,
// arguments not JSON, not an object, missing required arguments, extra arguments (sorted), then every
// schema error of every argument (type, enum, nested objects' required and extra fields, array items),
// joined by "; ". Nothing else is checked: no range, length, pattern or format. The call-feedback rule
// (src/validator/call-feedback.ts) keeps this block only for calls no other constraint blocked, as CCTU's
// checker runs only on those.
const NAME = 'TOOL ARGUMENTS';

const { PyInt, PyFloat, PyDict } = lib;

function typeName(value) {
  if (value === null) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  if (value instanceof PyInt) return 'int';
  if (value instanceof PyFloat) return 'float';
  if (value instanceof PyDict) return 'dict';
  return typeof value;
}

/** Python's str() of a value in a message: a string as it is, anything else as repr. */
function pyStr(value) {
  return typeof value === 'string' ? value : lib.pythonRepr(value);
}

function get(dict, key) {
  return dict instanceof PyDict && dict.map.has(key) ? dict.map.get(key) : null;
}

function truthy(value) {
  if (value === null || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof PyDict) return value.map.size > 0;
  if (value instanceof PyInt) return value.digits !== '0';
  if (value instanceof PyFloat) return value.value !== 0;
  return true;
}

/** What `for x in value` yields in Python; a type it cannot iterate is Python's TypeError. */
function iterate(value) {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return Array.from(value);
  if (value instanceof PyDict) return Array.from(value.map.keys());
  throw new TypeError("'" + typeName(value) + "' object is not iterable");
}

function numeric(value) {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof PyInt) return Number(value.digits);
  if (value instanceof PyFloat) return value.value;
  return undefined;
}

/** Python's `a == b` on json.loads values (True == 1, 1 == 1.0). */
function pyEqual(a, b) {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) {
    if (x === undefined || y === undefined) return false;
    if (a instanceof PyInt && b instanceof PyInt) return a.digits === b.digits;
    return x === y;
  }
  if (a === null || b === null || typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every(function (item, index) { return pyEqual(item, b[index]); });
  }
  if (a instanceof PyDict && b instanceof PyDict) {
    if (a.map.size !== b.map.size) return false;
    for (const [key, item] of a.map) if (!b.map.has(key) || !pyEqual(item, b.map.get(key))) return false;
    return true;
  }
  return false;
}

/** Python's `value in container`. */
function contains(container, value) {
  if (Array.isArray(container)) return container.some(function (item) { return pyEqual(item, value); });
  if (typeof container === 'string') {
    if (typeof value !== 'string') throw new TypeError("'in <string>' requires string as left operand, not " + typeName(value));
    return container.indexOf(value) >= 0;
  }
  if (container instanceof PyDict) {
    if (Array.isArray(value) || value instanceof PyDict) throw new TypeError("unhashable type: '" + typeName(value) + "'");
    return typeof value === 'string' && container.map.has(value);
  }
  throw new TypeError("argument of type '" + typeName(container) + "' is not iterable");
}

/** Python's sorted() of strings: by code point. */
function sortedStrings(names) {
  const points = function (text) { return Array.from(text, function (char) { return char.codePointAt(0); }); };
  return names.slice().sort(function (a, b) {
    const x = points(a);
    const y = points(b);
    for (let index = 0; index < Math.min(x.length, y.length); index++) if (x[index] !== y[index]) return x[index] - y[index];
    return x.length - y.length;
  });
}

function keysOf(dict) {
  if (!truthy(dict)) return [];
  if (!(dict instanceof PyDict)) throw new TypeError("'" + typeName(dict) + "' object has no attribute 'keys'");
  return Array.from(dict.map.keys());
}

function matchesOne(value, type) {
  if (type === 'string') return typeof value === 'string';
  if (type === 'integer') return value instanceof PyInt;
  if (type === 'number') return value instanceof PyInt || value instanceof PyFloat;
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'object') return value instanceof PyDict;
  if (type === 'array') return Array.isArray(value);
  if (type === 'null') return value === null;
  return true;
}

/** schema_validate.py, validate_param_value. */
function validate(name, value, schema, path) {
  const errors = [];
  const at = path === null ? name : path;
  const expected = get(schema, 'type');
  if (expected !== null) {
    const alternatives = typeof expected === 'string' ? [expected] : iterate(expected);
    if (!alternatives.some(function (type) { return matchesOne(value, type); })) {
      errors.push(at + ': type mismatch, expected ' + pyStr(expected) + ', got ' + typeName(value));
      return errors;
    }
  }
  let types;
  if (typeof expected === 'string') types = [expected];
  else if (Array.isArray(expected)) types = expected.filter(function (type) { return typeof type === 'string'; });
  else if (expected === null) types = [];
  else throw new TypeError('schema.type invalid: ' + lib.pythonRepr(expected));
  if (schema.map.has('enum')) {
    const allowed = schema.map.get('enum');
    if (!contains(allowed, value)) errors.push(at + ': value ' + lib.pythonRepr(value) + ' not in enum ' + lib.pythonRepr(allowed));
  }
  if ((types.indexOf('object') >= 0 || (expected === null && value instanceof PyDict)) && value instanceof PyDict) {
    const props = truthy(get(schema, 'properties')) ? get(schema, 'properties') : new PyDict();
    const required = truthy(get(schema, 'required')) ? iterate(get(schema, 'required')) : [];
    const missing = required.filter(function (key) { return !value.map.has(key); });
    if (missing.length > 0) errors.push(at + ': missing required fields: ' + missing.join(', '));
    const declared = keysOf(props);
    const extra = sortedStrings(Array.from(value.map.keys()).filter(function (key) { return declared.indexOf(key) < 0; }));
    if (extra.length > 0) errors.push(at + ': extra fields not in schema: ' + extra.join(', '));
    for (const subName of declared) {
      if (!value.map.has(subName)) continue;
      const subSchema = props.map.get(subName);
      if (subSchema instanceof PyDict) errors.push.apply(errors, validate(subName, value.map.get(subName), subSchema, at + '.' + subName));
    }
  }
  if ((types.indexOf('array') >= 0 || (expected === null && Array.isArray(value))) && Array.isArray(value)) {
    const items = get(schema, 'items');
    if (items instanceof PyDict) {
      value.forEach(function (item, index) { errors.push.apply(errors, validate(name + '[' + index + ']', item, items, at + '[' + index + ']')); });
    }
  }
  return errors;
}

function toolsDoc(toolsText) {
  const parsed = lib.pythonJsonLoads(toolsText);
  if (parsed.error !== undefined) throw new TypeError('tools is not JSON: ' + parsed.error);
  const doc = new Map();
  for (const tool of iterate(parsed.value)) {
    const fn = truthy(get(tool, 'function')) ? get(tool, 'function') : new PyDict();
    const parameters = get(fn, 'parameters');
    if (!(parameters instanceof PyDict)) throw new TypeError('tool.parameters is not dict for ' + pyStr(get(fn, 'name')));
    doc.set(get(fn, 'name'), parameters);
  }
  return doc;
}

function init(params) {
  return { tools: toolsDoc(params.tools) };
}

/** The one error CCTU reports for a call, or null. */
function callError(tools, call) {
  const name = call.name;
  if (!tools.has(name)) return "Failed to call tool '" + name + "' as it does not exist";
  const doc = truthy(tools.get(name)) ? tools.get(name) : new PyDict();
  const props = truthy(get(doc, 'properties')) ? get(doc, 'properties') : new PyDict();
  const required = truthy(get(doc, 'required')) ? iterate(get(doc, 'required')) : [];
  const parsed = lib.pythonJsonLoads(call.arguments || '');
  if (parsed.error !== undefined) return "Failed to call tool '" + name + "' due to invalid JSON arguments: " + parsed.error;
  const args = parsed.value;
  if (!(args instanceof PyDict)) return "Failed to call tool '" + name + "' due to invalid argument format: expected JSON object, got " + typeName(args);
  const missing = required.filter(function (key) { return !args.map.has(key); });
  if (missing.length > 0) return "Failed to call tool '" + name + "' due to missing required argument(s): " + missing.join(', ');
  const declared = keysOf(props);
  const extra = sortedStrings(Array.from(args.map.keys()).filter(function (key) { return declared.indexOf(key) < 0; }));
  if (extra.length > 0) return "Failed to call tool '" + name + "' due to extra argument(s): " + extra.join(', ');
  const errors = [];
  for (const [argName, argValue] of args.map) {
    const schema = props.map.get(argName);
    if (schema instanceof PyDict) errors.push.apply(errors, validate(argName, argValue, schema, null));
  }
  return errors.length === 0 ? null : "Failed to call tool '" + name + "' due to invalid argument(s): " + errors.join('; ');
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'tool-calls') return { verdicts: verdicts, state: state };
  for (const call of step.calls) {
    if (!call.id) continue;
    const error = callError(state.tools, call);
    if (error !== null) verdicts.push({ effect: 'block-call', callId: call.id, message: lib.pythonStrip(error) });
  }
  return { verdicts: verdicts, state: state };
}
