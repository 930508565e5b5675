/* exported NAME, init, check */
/* global lib */
'use strict';
// Groups (multisets) of tools that must be called together. A tool's groups are alternatives (CCTU's
// "should be called in parallel with one of [...]"): its call passes when the step's calls (attempted,
// blocked or not) contain all of at least one group it belongs to, and is blocked otherwise.
// With `wording: 'cctu'` the feedback is CCTU's own text (github Junjie-Ye/CCTU,
// utils/constraint_checker/handlers/tool.py, ToolParallelHandler.check): every group holding the tool, in
// order, and the step's calls as Python prints a list. A group of one tool is met by calling it.
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
  return { groups: params.groups, needs: needs, groupsOf: groupsOf, cctu: params.wording === 'cctu' };
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
    if (state.cctu) {
      const expected = state.groups.filter(function (group) { return group.indexOf(call.name) >= 0; });
      verdicts.push({
        effect: 'block-call',
        callId: call.id,
        message: "INSTRUCTION FOLLOWING ERROR: TOOL PARALLEL NOT FOLLOWED! Tool '" + call.name + "' parallel requirement not met: should be called in parallel with one of " +
          expected.map(function (group) { return '[' + group.join(', ') + ']'; }).join(' OR ') + '. Current parallel calls: ' +
          lib.pythonRepr(step.calls.map(function (other) { return other.name; })),
      });
      continue;
    }
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
