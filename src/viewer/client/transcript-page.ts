import { renderChat } from './chat.ts';
import { h, pct, usd } from './dom.ts';
import type { Row } from './api.ts';

/**
 * One episode's page of a static bundle (src/report/bundle.ts): its score line and its whole transcript in the chat
 * view, from the JSON inlined in the page. Nothing is fetched: the page opens from disk (file://) with no network.
 */
interface TranscriptPayload {
  run: string;
  episode: Row;
  events: Row[];
  report: string;
  previous: string | null;
  next: string | null;
}

const payload = JSON.parse(document.getElementById('transcript-data')!.textContent ?? '{}') as TranscriptPayload;
const { episode } = payload;
const score = episode.graded ? (episode.passed ? 'passed' : 'failed') : 'not graded';
// every event is in the page whole, so no "load the whole text" link is needed
const whole = () => h('span');
document.getElementById('app')!.append(
  h('p', {}, h('a', { href: payload.report, id: 'to-report' }, `← ${payload.run}`),
    payload.previous ? h('a', { href: payload.previous, id: 'previous', style: 'margin-left: 12px' }, '← previous episode') : null,
    payload.next ? h('a', { href: payload.next, id: 'next', style: 'margin-left: 12px' }, 'next episode →') : null),
  h('h1', {}, `${episode.task_id}#${episode.repeat} `, h('span', { class: `badge ${episode.status}` }, episode.status)),
  h('p', { class: 'muted' }, `${score} · ${episode.reason ?? ''} · SR ${pct(episode.sr)} · PSR ${pct(episode.psr)} · accuracy ${pct(episode.accuracy)} · ${episode.rounds ?? 0} rounds · ${episode.tool_calls ?? 0} tool calls · ${episode.blocked_calls ?? 0} blocked · cost ${usd(episode.cost_usd)}`),
  h('div', { class: 'transcript static', id: 'transcript', 'data-view': 'chat' }, ...payload.events.map((event) => {
    const node = renderChat(event, whole);
    node.dataset.seq = String(event.seq);
    return node;
  })),
);
