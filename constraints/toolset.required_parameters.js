/* exported NAME, init, check */
/* global lib */
'use strict';
// Every argument a tool's JSON Schema marks `required` (nested objects too) must be present.
// Unknown tools and unparsable arguments are toolset.available_tools' to report.
const NAME = 'REQUIRED PARAMETERS';

function init() {
  return null;
}

function check(state, step) {
  const verdicts = [];
  for (const call of step.kind === 'tool-calls' ? step.calls : []) {
    const missing = (lib.callIssues(call) || []).filter(function (issue) { return issue.kind === 'missing'; });
    if (missing.length === 0) continue;
    verdicts.push({
      effect: 'block-call',
      callId: call.id,
      message: 'Tool `' + call.name + '` requires ' + missing.map(function (issue) { return '`' + issue.path + '`'; }).join(', ') +
        ', missing from this call, so it was not executed. Call it again with every required argument.',
    });
  }
  return { verdicts: verdicts, state: state };
}
