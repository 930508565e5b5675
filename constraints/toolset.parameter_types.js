/* exported NAME, init, check */
/* global lib */
'use strict';
// Every argument must have the JSON type its schema declares (nested objects, array items, anyOf/oneOf).
// Unknown tools and unparsable arguments are toolset.available_tools' to report.
const NAME = 'PARAMETER TYPES';

function init(_params, tools) {
  const schemas = {};
  for (const tool of tools) schemas[tool.name] = tool.parameters;
  return { schemas: schemas };
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'tool-calls') return { verdicts: verdicts, state: state };
  for (const call of step.calls) {
    if (!Object.prototype.hasOwnProperty.call(state.schemas, call.name)) continue;
    const issues = lib.callIssues(call);
    if (issues === null) continue;
    const wrong = issues.filter(function (issue) { return issue.kind === 'type'; });
    if (wrong.length > 0) {
      verdicts.push({
        effect: 'block-call',
        callId: call.id,
        message: wrong.map(function (issue) { return 'Argument `' + (issue.path || '(arguments)') + '` of `' + call.name + '` ' + issue.text + '.'; }).join(' ') +
          ' This call was not executed; call it again with the right types.',
      });
    }
  }
  return { verdicts: verdicts, state: state };
}
