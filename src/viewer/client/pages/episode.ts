import type Dagre from '@dagrejs/dagre';
import { Virtualizer, elementScroll, measureElement, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { get, parseJson as parse, type Row } from '../api.ts';
import { renderChat } from '../chat.ts';
import { basename, h, num, usd } from '../dom.ts';
import { expectedSection } from '../expected.ts';
import { go } from '../nav.ts';
import { dagViewBox } from '../dag-view-box.ts';

const PAGE = 200;

/** How the transcript is shown: the chat the agent lived (the default) or every recorded event (key `e` switches). */
type View = 'chat' | 'events';
let view: View = 'chat';

/**
 * Episode: the transcript (virtualized, fetched a page of events at a time) as a chat or as raw events, with the
 * score, the expected answers and the verdicts beside it. `#/episode/<file>/<seq>` opens it at an event.
 */
export async function episodePage(root: HTMLElement, [id = '', at]: string[]): Promise<() => void> {
  const detail = await get<Row>('/api/episode', { id });
  if (!detail.found) {
    root.append(detail.indexing ? h('p', { class: 'muted', id: 'indexing' }, `${basename(id)} is being indexed: its page shows when it is read.`)
      : h('div', { class: 'error-box', id: 'unreadable' }, detail.unreadable ? `Unreadable trajectory ${basename(id)}: ${detail.unreadable}` : `No episode ${id} in the results store.`));
    return () => undefined;
  }
  const episode = detail.episode as Row;
  const count = Number(episode.events);
  const pages = new Map<number, Row[] | Promise<void>>();
  pages.set(0, placed(detail.events as Row[], 0));
  const divergences = detail.divergences as Row[];
  const divergedAt = new Map<number, Row[]>();
  for (const divergence of divergences) divergedAt.set(divergence.seq, [...(divergedAt.get(divergence.seq) ?? []), divergence]);
  let highlighted = -1;
  /** End was pressed: follow the end of the transcript until its last event is on screen (until this time, 0: not following). */
  let toEnd = 0;
  let settled = 0;

  const scroller = h('div', { class: 'transcript', id: 'transcript', tabindex: 0 });
  const inner = h('div', { style: 'position: relative; width: 100%;' });
  scroller.append(inner);

  const virtualizer = new Virtualizer<HTMLDivElement, HTMLElement>({
    count,
    getScrollElement: () => scroller,
    estimateSize: () => 64,
    overscan: 8,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    measureElement,
    onChange: () => draw(),
  });

  /** A page of events placed by seq (a gap stays empty). */
  function placed(rows: Row[], index: number): Row[] {
    const full: Row[] = [];
    for (const row of rows) full[row.seq - index * PAGE] = row;
    return full;
  }

  function eventAt(seq: number): Row | undefined {
    const page = pages.get(Math.floor(seq / PAGE));
    return Array.isArray(page) ? page[seq - Math.floor(seq / PAGE) * PAGE] : undefined;
  }

  function need(seq: number): void {
    const index = Math.floor(seq / PAGE);
    if (pages.has(index)) return;
    pages.set(index, get<Row[]>('/api/events', { id, from: index * PAGE, limit: PAGE }).then((rows) => {
      pages.set(index, placed(rows, index));
      draw();
    }));
  }

  // Rows on screen, kept between draws: a draw adds the rows that came into view and drops those that left, so
  // scrolling renders and measures only new rows.
  const shown = new Map<number, { node: HTMLElement; loaded: boolean }>();

  function rowFor(index: number): HTMLElement {
    const event = eventAt(index);
    const current = shown.get(index);
    if (current && (current.loaded || !event)) return current.node;
    if (!event) need(index);
    const diverged = divergedAt.get(index) ?? [];
    // a row the chat leaves empty (a tool call, a check without verdicts) is shown as its event where it diverged
    const chat = event && view === 'chat' ? renderChat(event, fullLink) : null;
    const node = event ? marked(chat && !(diverged.length > 0 && chat.classList.contains('chat-empty')) ? chat : renderEvent(event), diverged)
      : h('div', { class: 'event loading' }, h('span', { class: 'muted' }, `event ${index} …`));
    node.dataset.index = String(index);
    node.dataset.seq = String(index);
    node.style.cssText = 'position: absolute; top: 0; left: 0; width: 100%;';
    current?.node.remove();
    shown.set(index, { node, loaded: event !== undefined });
    return node;
  }

  function draw(): void {
    const items = virtualizer.getVirtualItems();
    inner.style.height = `${virtualizer.getTotalSize()}px`;
    const visible = new Set(items.map((item) => item.index));
    for (const [index, row] of shown) {
      if (!visible.has(index)) {
        row.node.remove();
        shown.delete(index);
      }
    }
    const added: HTMLElement[] = [];
    for (const item of items) {
      const node = rowFor(item.index);
      node.style.transform = `translateY(${item.start}px)`;
      node.classList.toggle('highlight', item.index === highlighted);
      if (!node.isConnected) {
        inner.append(node);
        added.push(node);
      }
    }
    for (const node of added) virtualizer.measureElement(node);
    // End: rows measured taller than estimated push the end down; ask the virtualizer for its end again each frame
    // (it reconciles its own scroll as rows are measured) until the last event is on screen for a few frames
    if (toEnd > 0) {
      const last = shown.get(count - 1);
      // At the end by the scroller's own height too: the virtualizer may take its end as reached while rows measured
      // since leave the real end lower (Chromium 150: the last event stayed 55 px below the fold).
      const atBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1;
      if (!atBottom && last?.loaded) scroller.scrollTop = scroller.scrollHeight;
      const onScreen = atBottom && last?.loaded && last.node.getBoundingClientRect().bottom <= scroller.getBoundingClientRect().bottom + 1;
      settled = onScreen ? settled + 1 : 0;
      if (settled >= 3 || performance.now() > toEnd) toEnd = 0;
      else requestAnimationFrame(() => {
        if (toEnd === 0) return;
        virtualizer.scrollToEnd();
        draw();
      });
    }
  }
  const scrollToEnd = () => {
    // followed for at most 10 s (a page of events still loading)
    toEnd = performance.now() + 10_000;
    settled = 0;
    virtualizer.scrollToEnd();
    draw();
  };
  scroller.addEventListener('wheel', () => (toEnd = 0), { passive: true });

  /** Scrolls the transcript to an event and highlights it (checklist links). */
  function reveal(seq: number): void {
    toEnd = 0;
    highlighted = seq;
    virtualizer.scrollToIndex(seq, { align: 'center' });
    draw();
    // dynamic row heights settle over a frame or two: align again once measured
    requestAnimationFrame(() => requestAnimationFrame(() => {
      virtualizer.scrollToIndex(seq, { align: 'center' });
      draw();
    }));
  }

  /** Shows the transcript as a chat or as raw events; rows on screen are drawn again and measured anew. */
  const viewButton = h('button', { type: 'button', id: 'view-toggle', onclick: () => setView(view === 'chat' ? 'events' : 'chat') });
  function setView(next: View, first = false): void {
    view = next;
    viewButton.textContent = view === 'chat' ? 'raw events (e)' : 'chat (e)';
    scroller.dataset.view = view;
    if (first) return;
    for (const row of shown.values()) row.node.remove();
    shown.clear();
    virtualizer.measure();
    draw();
  }

  const messageSeqs = detail.messageSeqs as number[];
  const expected = detail.expected as Row;
  // an episode not indexed yet (a large one): its first events, read from the file; the rest when the index has it
  const side = detail.indexing ? h('aside', { class: 'side' }, h('section', { id: 'indexing' }, h('h2', {}, 'Being indexed'),
    h('p', { class: 'muted' }, `Its first ${count} events, read from the file. The whole transcript, the score and the figures show when the index has read it: this page updates by itself.`)))
    : h('aside', { class: 'side' },
    scoreSection(episode),
    expectedSection(expected, detail.checklist as Row[], messageSeqs, reveal),
    constraintSection(detail.constraints as Row[]),
    divergenceSection(divergences, detail.savedChecks as Row[], reveal),
    expected.panel === 'checklist' ? null : checklistSection(detail.checklist as Row[], messageSeqs, reveal),
    planSection(detail.plan),
  );

  const nav = h('div', { class: 'toolbar' },
    h('a', { href: `#/run/${encodeURIComponent(episode.run_dir)}` }, `← ${basename(episode.run_dir)}`),
    detail.previous ? h('a', { id: 'previous', href: `#/episode/${encodeURIComponent(detail.previous)}` }, '◀ previous') : null,
    detail.next ? h('a', { id: 'next', href: `#/episode/${encodeURIComponent(detail.next)}` }, 'next ▶') : null,
    viewButton,
    h('span', { class: 'muted' }, 'keys: ', h('span', { class: 'kbd' }, 'e'), ' chat/raw events, ', h('span', { class: 'kbd' }, 'j'), '/', h('span', { class: 'kbd' }, 'k'), ' next/previous episode, ', h('span', { class: 'kbd' }, 'Home'), '/', h('span', { class: 'kbd' }, 'End'), ' top/end'),
  );
  root.append(
    h('h1', {}, `${episode.task_id}#${episode.repeat}`, ' ', h('span', { class: `badge ${episode.status}` }, episode.status)),
    h('p', { class: 'muted' }, `${episode.model ?? ''} · ${episode.enforcement ?? ''} · ${episode.reason ?? ''} · ${detail.indexing ? `first ${count} events` : `${count} events`}`),
    nav,
    h('div', { class: 'cols' }, scroller, side),
  );

  const onKey = (event: KeyboardEvent) => {
    if ((event.target as HTMLElement).closest('input, select, textarea')) return;
    if ((event.key === 'j' || event.key === 'ArrowRight') && detail.next) go('episode', detail.next);
    else if ((event.key === 'k' || event.key === 'ArrowLeft') && detail.previous) go('episode', detail.previous);
    else if (event.key === 'e') setView(view === 'chat' ? 'events' : 'chat');
    else if (event.key === 'End') scrollToEnd();
    else if (event.key === 'Home') {
      toEnd = 0;
      virtualizer.scrollToIndex(0, { align: 'start' });
    }
    else return;
    event.preventDefault();
  };
  window.addEventListener('keydown', onKey);
  const unmount = virtualizer._didMount();
  setView(view, true);
  queueMicrotask(() => {
    virtualizer._willUpdate();
    draw();
    const seq = Number(at);
    if (at !== undefined && Number.isInteger(seq) && seq >= 0 && seq < count) reveal(seq);
  });
  (window as unknown as { transcript: unknown }).transcript = { reveal, scrollToEnd };
  return () => {
    window.removeEventListener('keydown', onKey);
    unmount();
  };
}

function scoreSection(episode: Row): HTMLElement {
  const metrics = (typeof episode.metrics === 'string' ? JSON.parse(episode.metrics) : episode.metrics) as Record<string, number | null> | null;
  return h('section', { id: 'score' },
    h('h2', {}, 'Score'),
    episode.graded ? h('p', {}, h('span', { class: episode.passed ? 'pass' : 'fail' }, episode.passed ? 'passed' : 'failed'), ` · ${episode.style}${episode.group ? ` · ${episode.group}` : ''}`)
      : h('p', { class: 'muted' }, episode.grade_error ? `not graded: ${episode.grade_error}` : 'not graded (no summary.json score)'),
    metrics ? h('table', {}, h('tbody', {}, ...Object.entries(metrics).map(([name, value]) => h('tr', {}, h('td', {}, name), h('td', { class: 'num' }, value === null ? 'not judged' : num(value, Number.isInteger(value) ? 0 : 3)))))) : null,
    h('p', { class: 'muted' }, `rounds ${num(episode.rounds)} · tool calls ${num(episode.tool_calls)} · blocked ${num(episode.blocked_calls)} · rejected ${num(episode.rejected_answers)} · tokens ${num(episode.input_tokens)}/${num(episode.output_tokens)} · cost ${usd(episode.cost_usd)}`),
  );
}

function constraintSection(constraints: Row[]): HTMLElement | null {
  if (constraints.length === 0) return null;
  return h('section', { id: 'constraints' }, h('h2', {}, 'Constraints'), h('table', {}, h('tbody', {}, ...constraints.map((row) =>
    h('tr', { 'data-constraint': row.constraint_id }, h('td', {}, row.category), h('td', {}, h('span', { class: `badge ${row.status}` }, row.status)))))));
}

function checklistSection(items: Row[], messageSeqs: number[], reveal: (seq: number) => void): HTMLElement | null {
  if (items.length === 0) return null;
  const link = (message: number, kind: string) => {
    const seq = messageSeqs[message];
    return seq === undefined ? h('span', { class: 'muted' }, ` msg ${message}`) : h('a', { href: '#', class: `message-link ${kind}`, 'data-seq': seq, onclick: (event: Event) => {
      event.preventDefault();
      reveal(seq);
    } }, ` msg ${message}`);
  };
  return h('section', { id: 'checklist' }, h('h2', {}, 'Checklist'), h('ul', {}, ...items.map((item) =>
    h('li', { 'data-item': item.item_id },
      h('span', { class: `badge ${item.verdict}` }, item.verdict), ` ${item.item_id}`, item.grader === 'judge' ? h('span', { class: 'muted' }, ' (judge)') : null,
      (item.supporting as number[]).length > 0 ? h('div', {}, 'supporting:', ...(item.supporting as number[]).map((message) => link(message, 'supporting'))) : null,
      (item.contradicting as number[]).length > 0 ? h('div', {}, 'contradicting:', ...(item.contradicting as number[]).map((message) => link(message, 'contradicting'))) : null,
      item.reason ? h('div', { class: 'muted' }, item.reason) : null,
    ))));
}

/** The plan as a DAG laid out by dagre (steps as boxes, depends_on as edges); dagre is loaded only for a plan. */
function planSection(plan: unknown): HTMLElement | null {
  if (!plan || typeof plan !== 'object') return null;
  if ('error' in plan) return h('section', { id: 'plan' }, h('h2', {}, 'Plan'), h('p', { class: 'fail' }, String((plan as { error: string }).error)));
  const { steps, execution } = plan as { steps: PlanStep[]; execution?: PlanExecutionBrief | null };
  const diverged = execution?.divergedAt?.candidateStep ?? null;
  const dag = h('div', { class: 'dag' });
  void import('@dagrejs/dagre').then(({ default: dagre }) => dag.append(planSvg(dagre, steps, diverged)));
  return h('section', { id: 'plan' }, h('h2', {}, `Plan (${steps.length} steps)`), execution ? divergenceOf(execution) : null, dag,
    h('ol', {}, ...steps.map((step) => h('li', { value: step.id, 'data-step': step.id, class: step.id === diverged ? 'diverged-step' : undefined }, `${step.tool}: ${step.prompt}`))));
}

/** What the executed plan reached of the reference's findings, and the step where it first missed one. */
interface PlanExecutionBrief {
  facts: number;
  reached: number;
  divergedAt: { referenceStep: number; candidateStep: number | null; expected: string; found: string } | null;
}

function divergenceOf({ facts, reached, divergedAt }: PlanExecutionBrief): HTMLElement {
  const share = `${reached} of ${facts} facts reached`;
  if (!divergedAt) return h('p', { id: 'plan-divergence', class: 'pass' }, `Executed: ${share}, no divergence from the reference`);
  const where = divergedAt.candidateStep === null ? `no step matches reference step ${divergedAt.referenceStep}` : `step ${divergedAt.candidateStep} (reference step ${divergedAt.referenceStep})`;
  return h('div', { id: 'plan-divergence', 'data-step': divergedAt.candidateStep ?? undefined, 'data-reference-step': divergedAt.referenceStep },
    h('p', { class: 'fail' }, `Executed: ${share}; diverged at ${where}`),
    h('div', {}, h('span', { class: 'muted' }, 'reference found: '), divergedAt.expected),
    h('div', {}, h('span', { class: 'muted' }, 'plan found: '), divergedAt.found));
}

interface PlanStep {
  id: number;
  tool: string;
  prompt: string;
  depends_on: number[];
}

function planSvg(dagre: typeof Dagre, steps: PlanStep[], diverged: number | null): SVGSVGElement {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: 20, ranksep: 30 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const step of steps) graph.setNode(String(step.id), { width: 150, height: 44, label: `${step.id}. ${step.tool}` });
  for (const step of steps) for (const from of step.depends_on) if (graph.hasNode(String(from))) graph.setEdge(String(from), String(step.id));
  dagre.layout(graph);
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  // every node and every edge point inside the picture: dagre routes some edges outside the width it reports
  svg.setAttribute('viewBox', dagViewBox(graph.nodes().map((name: string) => graph.node(name)), graph.edges().flatMap((edge: { v: string; w: string }) => graph.edge(edge).points), 10).join(' '));
  const make = (tag: string, attrs: Record<string, string | number>) => {
    const element = document.createElementNS(ns, tag);
    for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
    svg.append(element);
    return element;
  };
  for (const edge of graph.edges()) {
    const points = graph.edge(edge).points;
    make('polyline', { points: points.map((point: { x: number; y: number }) => `${point.x + 10},${point.y + 10}`).join(' '), fill: 'none', stroke: '#9ca3af', 'stroke-width': 1.5, 'marker-end': 'url(#arrow)' });
  }
  const defs = document.createElementNS(ns, 'defs');
  defs.innerHTML = '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#9ca3af"/></marker>';
  svg.prepend(defs);
  for (const step of steps) {
    const node = graph.node(String(step.id));
    const box = make('rect', { x: node.x - node.width / 2 + 10, y: node.y - node.height / 2 + 10, width: node.width, height: node.height, rx: 6, fill: step.id === diverged ? '#fef2f2' : '#eff6ff', stroke: step.id === diverged ? '#dc2626' : '#2563eb' });
    box.setAttribute('data-step', String(step.id));
    const title = document.createElementNS(ns, 'title');
    title.textContent = step.prompt;
    box.append(title);
    const text = make('text', { x: node.x + 10, y: node.y + 14, 'text-anchor': 'middle', 'font-size': 12 });
    text.textContent = `${step.id}. ${step.tool}`;
  }
  return svg;
}

/**
 * Where `sandbox replay --save` or `sandbox validate --save` found the episode diverging from its recording: each
 * divergence with what was recorded and what the replay (or re-validation) gave; a click scrolls to the event.
 */
function divergenceSection(divergences: Row[], saved: Row[], reveal: (seq: number) => void): HTMLElement | null {
  const clean = saved.filter((check) => check.divergences === 0);
  const none = clean.map((check) => h('p', { class: 'no-divergence', 'data-source': check.source },
    h('span', { class: 'badge satisfied' }, `${check.source}: no divergence`), ` saved ${String(check.created_at ?? '').replace('T', ' ').slice(0, 19)}`,
    check.constraints ? h('span', { class: 'muted' }, ` under ${check.constraints}`) : null));
  if (divergences.length === 0) return none.length === 0 ? null : h('section', { id: 'divergences' }, h('h2', {}, 'Replay and validate'), ...none);
  const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return h('section', { id: 'divergences' }, h('h2', {}, `Divergences (${divergences.length})`), ...none, h('ul', {}, ...divergences.map((divergence) =>
    h('li', { 'data-seq': divergence.seq, 'data-source': divergence.source },
      h('span', { class: 'badge blocked' }, `${divergence.source} · ${divergence.kind}`), ' ',
      h('a', { href: '#', class: 'divergence-link', onclick: (event: Event) => {
        event.preventDefault();
        reveal(divergence.seq);
      } }, `event ${divergence.seq}`),
      h('div', {}, divergence.detail),
      divergence.constraints ? h('div', { class: 'muted' }, `under ${divergence.constraints}`) : null,
      h('details', {}, h('summary', {}, 'recorded / replayed'),
        h('div', { class: 'muted' }, 'recorded'), h('pre', { class: 'recorded' }, show(parse(divergence.recorded))),
        h('div', { class: 'muted' }, divergence.source === 'validate' ? 'under the constraints' : 'replayed'), h('pre', { class: 'replayed' }, show(parse(divergence.replayed)))),
    ))));
}

/** One event of the transcript: what the agent said, what the validator said about it, what the tools answered. */
/** An event's row marked where a saved replay or validate diverged from the recording. */
function marked(node: HTMLElement, divergences: Row[]): HTMLElement {
  if (divergences.length === 0) return node;
  node.classList.add('diverged');
  node.firstElementChild?.after(...divergences.map((divergence) => h('div', { class: 'divergence' }, h('span', { class: 'badge blocked' }, `${divergence.source} diverged`), ` ${divergence.detail}`)));
  return node;
}

function renderEvent(event: Row): HTMLElement {
  const head = h('div', { class: 'head' }, `#${event.seq} ${event.type}${event.round ? ` · round ${event.round}` : ''}`);
  const node = h('div', { class: `event ${event.type}` }, head);
  switch (event.type) {
    case 'episode-start': {
      const messages = (parse(event.messages) ?? []) as Array<{ role: string; content: string }>;
      for (const message of messages) node.append(h('details', { open: message.role === 'user' }, h('summary', {}, message.role), h('pre', {}, message.content)));
      break;
    }
    case 'model-response': {
      const message = parse(event.message) as { content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }>; reasoning?: string } | null;
      if (!message) {
        node.append(h('span', { class: 'muted' }, 'a very long message: open it in full'), fullLink(event));
        break;
      }
      if (message.reasoning) node.append(h('details', {}, h('summary', {}, 'reasoning'), h('pre', {}, message.reasoning)));
      if (message.content) node.append(h('div', { class: 'content' }, message.content));
      for (const call of message.tool_calls ?? []) node.append(h('pre', {}, `→ ${call.function.name}(${call.function.arguments})`));
      break;
    }
    case 'constraint-check': {
      const verdicts = (parse(event.verdicts) ?? []) as Array<{ constraintId: string; category: string; effect: string; message: string; callId?: string }>;
      const observed = event.enforcement !== 'block';
      if (verdicts.length === 0) node.append(h('span', { class: 'muted' }, 'every constraint passed'));
      for (const verdict of verdicts) {
        node.append(h('div', { class: 'verdict', 'data-category': verdict.category },
          h('span', { class: `badge ${observed ? 'observed' : verdict.effect === 'error' ? 'error' : 'blocked'}` }, observed ? `${verdict.effect} (observed)` : verdict.effect),
          ` ${verdict.category} `, h('span', { class: 'muted' }, verdict.constraintId), h('div', {}, verdict.message)));
      }
      break;
    }
    case 'tool-call':
      node.append(h('span', { class: `badge ${event.disposition}` }, event.disposition), h('pre', {}, `${event.name}(${event.arguments})`));
      break;
    case 'tool-result': {
      const blocked = event.disposition === 'blocked';
      if (blocked) node.classList.add('blocked');
      const body = h('pre', { class: blocked ? 'feedback-text' : '' }, event.content ?? '');
      const label = `${blocked ? 'feedback the agent saw (call blocked)' : event.is_error ? 'tool error' : 'result'} · ${event.name} · ${num(event.content_length)} chars`;
      node.append(h('details', { open: blocked || event.is_error }, h('summary', {}, label), body, event.content_length > (event.content ?? '').length ? fullLink(event) : null));
      break;
    }
    case 'feedback':
      node.append(h('span', { class: `badge ${event.kind === 'constraint' ? 'blocked' : ''}` }, event.kind === 'constraint' ? 'answer rejected' : 'protocol'), h('div', { class: 'feedback-text' }, event.content));
      break;
    case 'episode-end': {
      const statuses = (parse(event.constraint_status) ?? {}) as Record<string, string>;
      node.append(h('div', {}, h('span', { class: `badge ${event.status}` }, event.status), ` ${event.reason ?? ''}`),
        h('div', {}, ...Object.entries(statuses).map(([constraint, status]) => h('span', { class: `badge ${status}`, title: constraint }, `${constraint}: ${status}`))));
      break;
    }
    default:
      node.append(h('span', { class: 'muted' }, event.type === 'plan-execution' ? 'plan executed (see the tool calls below)' : ''));
  }
  return node;
}

function fullLink(event: Row): HTMLElement {
  const link = h('a', { href: '#', onclick: async (click: Event) => {
    click.preventDefault();
    const id = decodeURIComponent(location.hash.replace(/^#\/episode\//, ''));
    const full = await get<Row>('/api/event', { id, seq: event.seq });
    link.replaceWith(h('pre', {}, String(full.content ?? JSON.stringify(parse(full.message), null, 2))));
  } }, ' show all');
  return link;
}

