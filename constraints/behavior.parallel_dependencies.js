/* exported NAME, init, check */
'use strict';
// Groups (multisets) of tools that must be called together. A tool's groups are alternatives (CCTU's
// "should be called in parallel with one of [...]"): its call passes when the step's calls (attempted,
// blocked or not) contain all of at least one group it belongs to, and is blocked otherwise.
const NAME = 'PARALLEL DEPENDENCIES';

function init(params) {
  // Each group's multiset as counts, and the groups of each tool, worked out once per episode.
  const needs = params.groups.map(tally);
  const groupsOf = Object.create(null);
  params.groups.forEach(function (group, position) {
    for (const tool of group) {
      if (groupsOf[tool] === undefined) groupsOf[tool] = [];
      if (groupsOf[tool].indexOf(position) < 0) groupsOf[tool].push(position);
    }
  });
  return { groups: params.groups, needs: needs, groupsOf: groupsOf };
}

function tally(names) {
  const counts = new Map();
  for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
  return counts;
}

function contains(present, needed) {
  for (const [tool, count] of needed) if ((present.get(tool) || 0) < count) return false;
  return true;
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'tool-calls') return { verdicts: verdicts, state: state };
  let present = null;
  for (const call of step.calls) {
    const mine = state.groupsOf[call.name];
    if (mine === undefined) continue;
    if (present === null) present = tally(step.calls.map(function (other) { return other.name; }));
    let satisfied = false;
    for (const position of mine) if (!satisfied && contains(present, state.needs[position])) satisfied = true;
    if (satisfied) continue;
    const listed = mine.map(function (position) { return '[' + state.groups[position].join(', ') + ']'; });
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
