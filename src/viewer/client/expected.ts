import type { Row } from './api.ts';
import { h } from './dom.ts';

/**
 * The expected answers beside the agent's (src/viewer/expected.ts gives them from the task file), drawn by the panel
 * the style names: golden answers per subquery and the tool message that held it (CCTU), checklist items with their
 * expected value and tolerance beside the grader's verdict (DDR), the reference plan's steps beside the agent's.
 */
export function expectedSection(expected: Row, checklist: Row[], messageSeqs: number[], reveal: (seq: number) => void): HTMLElement | null {
  if (!expected.available) return h('section', { id: 'expected' }, h('h2', {}, 'Expected answers'), h('p', { class: 'muted' }, `not shown: ${expected.why}`));
  const changed = expected.changed ? h('p', { class: 'fail', id: 'task-changed' }, `${expected.file} changed since this episode ran: the expected values below are the file's today`) : null;
  const seqLink = (seq: number, text: string, kind: string) => h('a', { href: '#', class: kind, 'data-seq': seq, onclick: (event: Event) => {
    event.preventDefault();
    reveal(seq);
  } }, text);
  if (expected.panel === 'golden-answers') {
    return h('section', { id: 'expected' }, h('h2', {}, 'Golden answers'), changed, h('table', {}, h('tbody', {}, ...(expected.subqueries as Row[]).map((subquery, index) =>
      h('tr', { 'data-subquery': index, 'data-found': String(subquery.found) },
        h('td', {}, h('div', {}, subquery.query), h('div', { class: 'muted' }, subquery.tool), h('div', {}, 'expected: ', h('b', { class: 'golden' }, subquery.answer))),
        h('td', {}, subquery.found === null ? h('span', { class: 'muted' }, 'not graded')
          : subquery.found ? h('span', {}, h('span', { class: 'badge satisfied' }, 'found'), subquery.seq === null ? '' : h('span', {}, ' in ', seqLink(subquery.seq, `tool message #${subquery.seq}`, 'golden-link')))
            : h('span', { class: 'badge unsatisfied' }, 'not found')),
      )))));
  }
  if (expected.panel === 'checklist') return checklistSection(expected, checklist, messageSeqs, changed, seqLink);
  if (expected.panel !== 'reference-plan') {
    // a panel this page has no drawing for (a style's own): its rows as a table
    return h('section', { id: 'expected' }, h('h2', {}, 'Expected'), changed, h('table', {}, h('tbody', {}, ...((expected.rows ?? []) as Row[]).map((row) =>
      h('tr', {}, ...Object.values(row).map((value) => h('td', {}, typeof value === 'string' ? value : JSON.stringify(value))))))));
  }
  const matches = new Map((expected.matches as Row[]).map((match) => [match.referenceId as number, match]));
  return h('section', { id: 'expected' }, h('h2', {}, 'Reference plan'), changed, h('ol', {}, ...(expected.reference as Row[]).map((step) => {
    const match = matches.get(step.id);
    return h('li', { value: step.id, 'data-reference-step': step.id },
      `${step.tool}: ${step.prompt}`, step.depends_on.length > 0 ? h('span', { class: 'muted' }, ` (after ${step.depends_on.join(', ')})`) : null,
      h('div', {}, match ? h('span', { class: 'badge satisfied' }, `the agent's step ${match.candidateId} (similarity ${Number(match.similarity).toFixed(2)})`) : h('span', { class: 'badge unsatisfied' }, 'no step of the agent matches')),
      step.sql ? h('details', {}, h('summary', {}, 'reference SQL'), h('pre', {}, step.sql)) : null);
  })));
}

/** An expected DDR value as the checklist states it: a number ± its tolerance and unit, a set, a category. */
function expectedValue(item: Row): string {
  const unit = item.unit ? ` ${item.unit}` : '';
  if (Array.isArray(item.answer)) return item.answer.join(', ');
  if (item.answer_type === 'number') return `${item.answer}${item.tolerance !== null && item.tolerance > 0 ? ` ± ${item.tolerance}` : ''}${unit}`;
  return `${item.answer}${unit}`;
}

type SeqLink = (seq: number, text: string, kind: string) => HTMLElement;

/** DDR: each checklist item's question and expected value, the grader's verdict (each grader's), its reason and the messages behind it. */
function checklistSection(expected: Row, verdicts: Row[], messageSeqs: number[], changed: HTMLElement | null, seqLink: SeqLink): HTMLElement {
  const messages = (list: number[], kind: string) => list.map((message) => {
    const seq = messageSeqs[message];
    return seq === undefined ? h('span', { class: 'muted' }, ` msg ${message}`) : h('span', {}, ' ', seqLink(seq, `msg ${message}`, `message-link ${kind}`));
  });
  return h('section', { id: 'checklist' }, h('h2', {}, 'Checklist: expected and found'), changed, h('ul', {}, ...(expected.items as Row[]).map((item) => {
    const graded = verdicts.filter((verdict) => verdict.item_id === item.id);
    return h('li', { 'data-item': item.id },
      h('div', {}, h('b', {}, item.id), ' ', item.question),
      h('div', {}, 'expected: ', h('b', { class: 'expected-value' }, expectedValue(item))),
      graded.length === 0 ? h('div', { class: 'muted' }, 'not graded') : null,
      ...graded.map((verdict) => h('div', { class: 'item-verdict', 'data-grader': verdict.grader },
        h('span', { class: `badge ${verdict.verdict}` }, verdict.verdict), verdict.grader === 'judge' ? h('span', { class: 'muted' }, ' (judge)') : null,
        verdict.reason ? h('span', { class: 'reason' }, ` ${verdict.reason}`) : null,
        (verdict.supporting as number[]).length > 0 ? h('div', {}, 'supporting:', ...messages(verdict.supporting, 'supporting')) : null,
        (verdict.contradicting as number[]).length > 0 ? h('div', {}, 'contradicting:', ...messages(verdict.contradicting, 'contradicting')) : null)),
    );
  })));
}
