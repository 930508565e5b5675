import type { Constraint } from '../../src/schemas/constraint.ts';

type FormatParams = Extract<Constraint, { category: 'response.format' }>['params'];
type ContentParams = Extract<Constraint, { category: 'response.content' }>['params'];

/** A fact the final answer states: the question's subject and the value found. */
export interface AnswerFact {
  subject: string;
  value: string;
}

const IDENTIFIER_WRAP: Record<string, (value: string) => string> = {
  'double-brackets': (value) => `[[${value}]]`,
  boxed: (value) => `\\boxed{${value}}`,
  bold: (value) => `**${value}**`,
  quotes: (value) => `"${value}"`,
};

/**
 * The reference's final answer: the facts in the required format, wrapped in the required identifiers,
 * with the required start, end and punctuation. The generator only pairs formats and contents that can
 * hold together (see sample-constraints.ts), so the answer satisfies both.
 */
export function composeAnswer(facts: readonly AnswerFact[], format: FormatParams | undefined, content: ContentParams | undefined): string {
  const wrap = (value: string): string => (content?.identifiers ?? []).reduce((text, identifier) => IDENTIFIER_WRAP[identifier]?.(text) ?? text, value);
  const sentence = (fact: AnswerFact): string => `The ${fact.subject} is ${wrap(fact.value)}.`;
  let body: string;
  switch (format?.format) {
    case 'json':
      // CCTU's form: a single "answer" key holding the values.
      body = JSON.stringify({ answer: facts.map((fact) => wrap(fact.value)).join(', ') });
      break;
    case 'table':
      body = ['| question | answer |', '| --- | --- |', ...facts.map((fact) => `| ${fact.subject} | ${wrap(fact.value)} |`)].join('\n');
      break;
    case 'markdown':
      body = ['## Answer', '', ...facts.map((fact) => `- ${sentence(fact)}`)].join('\n');
      break;
    default:
      body = facts.map(sentence).join(' ');
  }
  if (content?.startsWith) body = `${content.startsWith} ${body}`;
  if (content?.endsWith) body = `${body}${format?.format === 'markdown' ? '\n\n' : ' '}${content.endsWith}`;
  return body;
}
