import { parseJson as parse, type Row } from './api.ts';
import { h, num } from './dom.ts';

/**
 * One event of the episode as the agent lived it (the chat view): the system and user messages and the tools offered
 * (episode-start), each assistant message once with its tool calls, each tool message open (a blocked call's tool
 * message is the feedback the agent read), the feedback user messages marked, and the validator's verdicts in a
 * line where it had something to say. A `tool-call` event is the call already shown in its assistant message, and a
 * check without verdicts says nothing the agent saw: both render as an empty row, so every event keeps its place
 * (seq) and links from the side panel find it in either view. In a conversation (a service episode) the other side's
 * turns (`user-turn`) are shown under their speaker (the customer), set apart from the agent's messages.
 */
export function renderChat(event: Row, full: (event: Row) => HTMLElement): HTMLElement {
  const row = (role: string, label: string, ...body: Array<Node | string | null>) =>
    h('div', { class: `event ${event.type} chat ${role}` }, h('div', { class: 'head' }, h('b', {}, role), label ? ` · ${label}` : '', event.round ? h('span', { class: 'muted' }, ` · round ${event.round}`) : null), ...body);
  switch (event.type) {
    case 'episode-start': {
      const messages = (parse(event.messages) ?? []) as Array<{ role: string; content: string }>;
      const tools = (parse(event.tools) ?? []) as Array<{ name: string; description: string; parameters: unknown }>;
      const node = h('div', { class: 'event episode-start chat-start' });
      // in a conversation (a user model played: `user_model`) the query is the user's opening line
      for (const message of messages) {
        const speaker = event.user_model && message.role === 'user' ? `user (${event.user_model})` : message.role;
        node.append(h('div', { class: `chat ${message.role}` }, h('div', { class: 'head' }, h('b', {}, speaker)), h('div', { class: 'content' }, message.content)));
      }
      node.append(h('details', { class: 'tools-offered' }, h('summary', {}, `tools offered (${tools.length})`), h('ul', {}, ...tools.map((tool) =>
        h('li', { 'data-tool': tool.name }, h('code', {}, tool.name), ` ${tool.description}`, h('details', {}, h('summary', {}, 'parameters'), h('pre', {}, JSON.stringify(tool.parameters, null, 2))))))));
      return node;
    }
    case 'model-response': {
      const message = parse(event.message) as { content: string | null; tool_calls?: Array<{ id?: string; function: { name: string; arguments: string } }>; reasoning?: string } | null;
      if (!message) return row('assistant', 'a very long message', full(event));
      return row('assistant', '',
        message.reasoning ? h('details', {}, h('summary', {}, 'reasoning'), h('div', { class: 'content' }, message.reasoning)) : null,
        message.content ? h('div', { class: 'content' }, message.content) : null,
        ...(message.tool_calls ?? []).map((call) => h('pre', { class: 'call-line' }, `→ ${call.function.name}(${call.function.arguments})`)));
    }
    case 'constraint-check': {
      const verdicts = (parse(event.verdicts) ?? []) as Array<{ constraintId: string; category: string; effect: string; message: string }>;
      if (verdicts.length === 0) return h('div', { class: 'event constraint-check chat-empty' });
      const observed = event.enforcement !== 'block';
      return row('validator', observed ? 'observed, not applied' : '', ...verdicts.map((verdict) => h('div', { class: 'verdict', 'data-category': verdict.category },
        h('span', { class: `badge ${observed ? 'observed' : verdict.effect === 'error' ? 'error' : 'blocked'}` }, verdict.effect), ` ${verdict.category}: ${verdict.message}`)));
    }
    case 'tool-call':
      return h('div', { class: 'event tool-call chat-empty' });
    case 'tool-result': {
      const blocked = event.disposition === 'blocked';
      const node = row('tool', `${event.name}${blocked ? ' · call blocked: the feedback the agent read' : event.is_error ? ' · error' : ''} · ${num(event.content_length)} chars`,
        h('pre', { class: blocked ? 'feedback-text' : 'result' }, event.content ?? ''),
        event.content_length > (event.content ?? '').length ? full(event) : null);
      if (blocked) node.classList.add('blocked');
      return node;
    }
    case 'user-turn': {
      // the other side of a conversation (a service episode's customer): its own speaker, beside the agent's messages
      const node = row(String(event.speaker ?? 'user'), event.hang_up ? 'ends the conversation' : '', h('div', { class: 'content' }, event.content ?? ''));
      node.classList.add('speaker');
      return node;
    }
    case 'feedback':
      return row('user', event.kind === 'constraint' ? 'feedback: answer rejected' : 'feedback from the protocol', h('div', { class: 'feedback-text' }, event.content ?? ''));
    case 'episode-end':
      return row('end', event.status, h('div', {}, event.reason ?? ''));
    default:
      return row('harness', event.type === 'plan-execution' ? 'plan executed (the tool messages below)' : event.type);
  }
}
