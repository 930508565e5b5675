/* exported NAME, init, check */
'use strict';
// Groups (multisets) of tools that must be called together. A tool's groups are alternatives (CCTU's
// "should be called in parallel with one of [...]"): its call passes when the step's calls (attempted,
// blocked or not) contain all of at least one group it belongs to, and is blocked otherwise.
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
    const mine = state.groups.filter(function (group) { return group.indexOf(call.name) >= 0; });
    if (mine.length === 0) continue;
    const satisfied = mine.some(function (group) {
      const needed = tally(group);
      return Object.keys(needed).every(function (tool) { return (present[tool] || 0) >= needed[tool]; });
    });
    if (satisfied) continue;
    const listed = mine.map(function (group) { return '[' + group.join(', ') + ']'; });
    verdicts.push({
      effect: 'block-call',
      callId: call.id,
      message: mine.length === 1
        ? '`' + call.name + '` must be called in parallel with the rest of its group ' + listed[0] +
          ', in the same message, so this call was not executed. Call all tools of the group together in one message.'
        : '`' + call.name + '` must be called in parallel with the rest of one of its groups ' + listed.join(', ') +
          ', in the same message, so this call was not executed. Call all tools of one of these groups together in one message.',
    });
  }
  return { verdicts: verdicts, state: state };
}
