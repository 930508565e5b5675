/* exported NAME, init, check */
'use strict';
// Per-tool limits {tool: max}. Attempts are counted like resource.tool_call_count (blocked calls count);
// a call past its tool's max is blocked.
// With `wording: 'cctu'` (imported CCTU tasks) the feedback is CCTU's own text, byte for byte: github
// Junjie-Ye/CCTU, utils/constraint_checker/handlers/tool.py, MaxCallsPerToolHandler.check.
const NAME = 'SPECIFIC TOOL CALL COUNT';

function init(params) {
  const counts = {};
  for (const tool of Object.keys(params.limits)) counts[tool] = 0;
  return { limits: params.limits, counts: counts, cctu: params.wording === 'cctu' };
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'tool-calls') return { verdicts: verdicts, state: state };
  for (const call of step.calls) {
    if (!Object.prototype.hasOwnProperty.call(state.limits, call.name)) continue;
    state.counts[call.name] += 1;
    const limit = state.limits[call.name];
    if (state.counts[call.name] > limit) {
      verdicts.push({
        effect: 'block-call',
        callId: call.id,
        message: state.cctu
          ? "INSTRUCTION FOLLOWING ERROR: MAX CALLS PER TOOL NOT FOLLOWED! Maximum call tool '" + call.name + "' times requirement not met: called " + state.counts[call.name] + ' times, requires at most ' + limit + '.'
          : 'Calls of `' + call.name + '` total ' + state.counts[call.name] + ', at most ' + limit +
          ' are allowed, so this call was not executed. Do not call `' + call.name + '` again; use other tools or provide the final answer.',
      });
    }
  }
  return { verdicts: verdicts, state: state };
}
