/* exported NAME, init, check */
'use strict';
// Ordered chains [t1, t2, ...]: a call of tk is blocked unless every earlier tool of its chain was
// attempted in an earlier step. A tool counts as called from the step of its first attempt, blocked or not.
const NAME = 'SEQUENTIAL DEPENDENCIES';

function init(params) {
  return { chains: params.chains, called: {} };
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'tool-calls') return { verdicts: verdicts, state: state };
  for (const call of step.calls) {
    const missing = [];
    const orders = [];
    for (const chain of state.chains) {
      const position = chain.indexOf(call.name);
      if (position <= 0) continue;
      const before = chain.slice(0, position);
      const lacking = before.filter(function (tool) { return state.called[tool] !== true; });
      if (lacking.length > 0) {
        orders.push(chain.join(' -> '));
        for (const tool of lacking) if (missing.indexOf(tool) < 0) missing.push(tool);
      }
    }
    if (missing.length > 0) {
      const names = missing.map(function (tool) { return '`' + tool + '`'; }).join(', ');
      verdicts.push({
        effect: 'block-call',
        callId: call.id,
        message: 'Tools must be called in the order ' + orders.join('; ') + '. `' + call.name + '` needs ' + names +
          ' called in an earlier step, so this call was not executed. Call ' + names + ' first, then `' + call.name + '` in a later message.',
      });
    }
  }
  // Marked after the whole step: a prerequisite in the same message does not count.
  for (const call of step.calls) state.called[call.name] = true;
  return { verdicts: verdicts, state: state };
}
