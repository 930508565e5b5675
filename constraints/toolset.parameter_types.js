/* exported NAME, init, check */
/* global lib */
'use strict';
// Every argument must have the JSON type its schema declares (nested objects, array items, anyOf/oneOf).
// Unknown tools and unparsable arguments are toolset.available_tools' to report.
const NAME = 'PARAMETER TYPES';

function init() {
  return null;
}

function check(state, step) {
  const verdicts = [];
  for (const call of step.kind === 'tool-calls' ? step.calls : []) {
    const wrong = (lib.callIssues(call) || []).filter(function (issue) { return issue.kind === 'type'; });
    if (wrong.length === 0) continue;
    const described = wrong.map(function (issue) { return 'Argument `' + (issue.path || '(arguments)') + '` of `' + call.name + '` ' + issue.text + '.'; });
    verdicts.push({
      effect: 'block-call',
      callId: call.id,
      message: described.join(' ') + ' This call was not executed; call it again with the right types.',
    });
  }
  return { verdicts: verdicts, state: state };
}
