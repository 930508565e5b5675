/* exported NAME, init, check */
'use strict';
// Ordered chains [t1, t2, ...]: a call of tk is blocked unless every earlier tool of its chain was
// attempted in an earlier step. A tool counts as called from the step of its first attempt, blocked or not.
// The rule is CCTU's (github Junjie-Ye/CCTU, utils/constraint_checker/handlers/tool.py, ToolOrderHandler.check):
// a tool's place in a chain is its first (`order.index`), the prerequisites are read from a snapshot taken
// before the step, and no chains means no check. `firstTool` ({ name, chains }) is the one-query case that
// ToolOrderHandler hard-codes (its query 96): when the first tool the episode calls is `name`, `firstTool.chains`
// apply instead of `chains`, otherwise none do (while `chains` is empty, nothing is checked at all). With
// `wording: 'cctu'` the feedback is ToolOrderHandler's own text, one sentence per missing prerequisite.
const NAME = 'SEQUENTIAL DEPENDENCIES';

function init(params) {
  return { chains: params.chains, firstTool: params.firstTool || null, cctu: params.wording === 'cctu', called: {}, first: null };
}

function cctuMessage(call, chains, called) {
  const sentences = [];
  for (const chain of chains) {
    const position = chain.indexOf(call.name);
    for (let index = 0; index < position; index++) {
      const before = chain[index];
      if (called[before] !== true) sentences.push("Tool '" + call.name + "' should be called after '" + before + "', but '" + before + "' hasn't been called yet.");
    }
  }
  return sentences.length === 0 ? null : 'INSTRUCTION FOLLOWING ERROR: TOOL ORDER NOT FOLLOWED! Tool order not met: ' + sentences.join(' ');
}

function ourMessage(call, chains, called) {
  const missing = [];
  const orders = [];
  for (const chain of chains) {
    const position = chain.indexOf(call.name);
    if (position <= 0) continue;
    const lacking = chain.slice(0, position).filter(function (tool) { return called[tool] !== true; });
    if (lacking.length > 0) {
      orders.push(chain.join(' -> '));
      for (const tool of lacking) if (missing.indexOf(tool) < 0) missing.push(tool);
    }
  }
  if (missing.length === 0) return null;
  const names = missing.map(function (tool) { return '`' + tool + '`'; }).join(', ');
  return 'Tools must be called in the order ' + orders.join('; ') + '. `' + call.name + '` needs ' + names +
    ' called in an earlier step, so this call was not executed. Call ' + names + ' first, then `' + call.name + '` in a later message.';
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'tool-calls' || state.chains.length === 0) return { verdicts: verdicts, state: state };
  let chains = state.chains;
  if (state.firstTool !== null) {
    const first = state.first === null ? (step.calls.length > 0 ? step.calls[0].name : null) : state.first;
    chains = first === state.firstTool.name ? state.firstTool.chains : [];
  }
  for (const call of step.calls) {
    const message = (state.cctu ? cctuMessage : ourMessage)(call, chains, state.called);
    if (message !== null) verdicts.push({ effect: 'block-call', callId: call.id, message: message });
  }
  // Marked after the whole step: a prerequisite in the same message does not count.
  for (const call of step.calls) {
    if (state.first === null) state.first = call.name;
    state.called[call.name] = true;
  }
  return { verdicts: verdicts, state: state };
}
