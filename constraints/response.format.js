/* exported NAME, init, check */
/* global lib */
'use strict';
// The final answer's format, read as CCTU reads it (lib.answerText: <think>…</think> removed, trimmed).
// json: `strict` (default) the answer is exactly one JSON object (a ```json fence is fine), `lenient` it
// contains one; with the required keys and key types. markdown: at least one Markdown element (CCTU checks
// leniently), as marked's tokenizer reads it (lib.markdownElements). table: a Markdown table with at least
// `minColumns` columns (default 2). plain: no Markdown elements at all.
const NAME = 'RESPONSE FORMAT';

function init(params) {
  return { format: params.format, strict: params.strictness !== 'lenient', requiredKeys: params.requiredKeys || [], keyTypes: params.keyTypes || {}, minColumns: params.minColumns || 2 };
}

function jsonType(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** JSON objects found in the text: the whole text (a ```json fence allowed), else (lenient only) every balanced {...} that parses. */
function jsonObjects(text, strict) {
  const found = [];
  const trimmed = text.trim().replace(/^```(?:json)?\s*\n?([\s\S]*?)\n?```$/u, '$1');
  // Only a text starting with `{` (after JSON's white space) can parse as an object: the test spares the
  // thrown SyntaxError (the costly part of a failed parse) for the answers that are not JSON at all.
  if (/^[ \t\n\r]*\{/u.test(trimmed)) {
    try {
      const whole = JSON.parse(trimmed);
      if (whole !== null && typeof whole === 'object' && !Array.isArray(whole)) return [whole];
    } catch {
      // not the whole answer: look for embedded objects below
    }
  }
  if (strict) return found;
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    const end = balancedEnd(text, start);
    if (end < 0) continue;
    try {
      const value = JSON.parse(text.slice(start, end + 1));
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) found.push(value);
    } catch {
      // braces that are not JSON
    }
  }
  return found;
}

function balancedEnd(text, start) {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{') depth += 1;
    else if (character === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

function keyProblems(state, object) {
  const problems = [];
  for (const key of state.requiredKeys) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) problems.push('key "' + key + '" is missing');
  }
  for (const key of Object.keys(state.keyTypes)) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) {
      if (state.requiredKeys.indexOf(key) < 0) problems.push('key "' + key + '" is missing');
      continue;
    }
    const want = state.keyTypes[key];
    const got = jsonType(object[key]);
    if (!(got === want || (want === 'number' && got === 'integer'))) problems.push('key "' + key + '" must be ' + want + ', got ' + got);
  }
  return problems;
}

function problemOf(state, text) {
  if (state.format === 'json') {
    const objects = jsonObjects(text, state.strict);
    if (objects.length === 0) {
      return state.strict
        ? 'The final answer must be exactly one valid JSON object (a ```json fence around it is allowed) and nothing else, and it is not. Answer with the JSON object alone.'
        : 'The final answer must contain a valid JSON object, and none was found. Answer with a JSON object.';
    }
    const fits = objects.some(function (object) { return keyProblems(state, object).length === 0; });
    if (!fits) {
      return 'The final answer must contain a JSON object with ' + describeKeys(state) + '; in the JSON found, ' +
        keyProblems(state, objects[0]).join('; ') + '. Fix the JSON object.';
    }
    return null;
  }
  const elements = lib.markdownElements(text);
  if (state.format === 'markdown' && elements.length === 0) {
    return 'The final answer must be formatted with Markdown (headings, lists, bold or italic text), and it has no Markdown element. Rewrite it in Markdown.';
  }
  if (state.format === 'plain' && elements.length > 0) {
    return 'The final answer must be plain text, but it contains ' + elements.join(', ') + '. Rewrite it without Markdown.';
  }
  if (state.format === 'table') {
    const columns = lib.markdownTables(text);
    if (columns < state.minColumns) {
      return 'The final answer must contain a Markdown table with at least ' + state.minColumns + ' columns (a header row, then a |---| separator row); ' +
        (columns === 0 ? 'none was found' : 'the widest has ' + columns) + '. Present the answer as a table.';
    }
  }
  return null;
}

function describeKeys(state) {
  const keys = state.requiredKeys.concat(Object.keys(state.keyTypes).filter(function (key) { return state.requiredKeys.indexOf(key) < 0; }));
  return keys.map(function (key) { return '"' + key + '"' + (state.keyTypes[key] ? ' (' + state.keyTypes[key] + ')' : ''); }).join(', ');
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'final-answer') return { verdicts: verdicts, state: state };
  const problem = problemOf(state, lib.answerText(step.content));
  if (problem !== null) verdicts.push({ effect: 'reject-answer', message: problem });
  return { verdicts: verdicts, state: state };
}
