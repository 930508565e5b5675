/* exported NAME, init, check */
/* global lib */
'use strict';
// Every argument a tool's JSON Schema marks `required` (nested objects too) must be present.
// Unknown tools and unparsable arguments are toolset.available_tools' to report.
const NAME = 'REQUIRED PARAMETERS';

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
    const missing = issues
      .filter(function (issue) { return issue.kind === 'missing'; })
      .map(function (issue) { return '`' + issue.path + '`'; });
    if (missing.length > 0) {
      verdicts.push({
        effect: 'block-call',
        callId: call.id,
        message: 'Tool `' + call.name + '` requires ' + missing.join(', ') + ', missing from this call, so it was not executed. ' +
          'Call it again with every required argument.',
      });
    }
  }
  return { verdicts: verdicts, state: state };
}
