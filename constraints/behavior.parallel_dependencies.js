/* exported NAME, init, check */
'use strict';
// Groups (multisets) of tools that must be called together: a call of a group member is blocked unless
// the whole group is among the calls of the same step (attempted calls, blocked or not).
const NAME = 'PARALLEL DEPENDENCIES';

function init(params) {
  return { groups: params.groups };
}

function tally(names) {
  const counts = {};
  for (const name of names) counts[name] = (counts[name] || 0) + 1;
  return counts;
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'tool-calls') return { verdicts: verdicts, state: state };
  const present = tally(step.calls.map(function (call) { return call.name; }));
  for (const call of step.calls) {
    const unmet = [];
    for (const group of state.groups) {
      if (group.indexOf(call.name) < 0) continue;
      const needed = tally(group);
      const complete = Object.keys(needed).every(function (tool) { return (present[tool] || 0) >= needed[tool]; });
      if (!complete) unmet.push('[' + group.join(', ') + ']');
    }
    if (unmet.length > 0) {
      verdicts.push({
        effect: 'block-call',
        callId: call.id,
        message: '`' + call.name + '` must be called in parallel with the rest of its group ' + unmet.join(' and ') +
          ', in the same message, so this call was not executed. Call all tools of the group together in one message.',
      });
    }
  }
  return { verdicts: verdicts, state: state };
}
