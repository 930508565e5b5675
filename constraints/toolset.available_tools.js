/* exported NAME, init, check */
/* global lib */
'use strict';
// The task's tools and the values their JSON Schemas allow: an unknown tool, arguments that are not a
// JSON object, arguments a tool does not declare, and values outside the schema (enum, const, ranges,
// lengths, pattern) are blocked. Missing and mistyped arguments belong to the other toolset categories.
const NAME = 'TOOL ARGUMENTS';

function init(_params, tools) {
  const schemas = {};
  for (const tool of tools) schemas[tool.name] = tool.parameters;
  return { schemas: schemas, names: tools.map(function (tool) { return tool.name; }) };
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'tool-calls') return { verdicts: verdicts, state: state };
  for (const call of step.calls) {
    let problem = null;
    if (!Object.prototype.hasOwnProperty.call(state.schemas, call.name)) {
      problem = 'Tool `' + call.name + '` is not available. Available tools: ' + state.names.join(', ') + '. Use only these tools.';
    } else {
      const parsed = lib.callArguments(call);
      if (parsed.error !== undefined) {
        problem = 'The arguments of `' + call.name + '` ' + parsed.error + '. Pass the arguments as one JSON object.';
      } else {
        const issues = lib.callIssues(call).filter(function (issue) {
          return issue.kind === 'extra' || issue.kind === 'range';
        });
        if (issues.length > 0) {
          problem = issues.map(function (issue) { return 'Argument `' + issue.path + '` of `' + call.name + '` ' + issue.text + '.'; }).join(' ') +
            ' Call it again with arguments its schema allows.';
        }
      }
    }
    if (problem !== null) verdicts.push({ effect: 'block-call', callId: call.id, message: problem + ' This call was not executed.' });
  }
  return { verdicts: verdicts, state: state };
}
