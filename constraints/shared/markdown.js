/* exported markdownElements, markdownTables */
/* global vendor */
'use strict';
// Markdown as a Markdown renderer reads it: marked's lexer (CommonMark + GitHub tables, bundled into the
// isolate by src/validator/isolate-source.ts), not regular expressions. `_italic_`, `*italic*` and inline
// `code` are Markdown; `snake_case_name` and `2 * 3` are not. A bare URL that GitHub would link is not
// counted as Markdown: it is how plain text writes a URL.

const ELEMENT_NAMES = {
  heading: 'a heading',
  list: 'a list',
  strong: 'bold text',
  em: 'italic text',
  codespan: 'inline code',
  code: 'a code block',
  link: 'a link',
  image: 'an image',
  blockquote: 'a block quote',
  table: 'a table',
  hr: 'a horizontal rule',
  del: 'struck-through text',
};

function walk(tokens, visit) {
  for (const token of tokens) {
    visit(token);
    if (Array.isArray(token.tokens)) walk(token.tokens, visit);
    if (Array.isArray(token.items)) walk(token.items, visit);
    if (Array.isArray(token.header)) for (const cell of token.header) walk(cell.tokens || [], visit);
    if (Array.isArray(token.rows)) for (const row of token.rows) for (const cell of row) walk(cell.tokens || [], visit);
  }
}

/** The Markdown elements of `text`, named ('a heading', 'inline code', …), each once, in reading order. */
function markdownElements(text) {
  const found = [];
  walk(vendor().Lexer.lex(text), function (token) {
    const name = ELEMENT_NAMES[token.type];
    if (name === undefined) return;
    if (token.type === 'link' && typeof token.raw === 'string' && token.raw.charAt(0) !== '[' && token.raw.charAt(0) !== '<') return;
    if (found.indexOf(name) < 0) found.push(name);
  });
  return found;
}

/** The number of columns of the widest Markdown table in `text` (0: none). */
function markdownTables(text) {
  let widest = 0;
  walk(vendor().Lexer.lex(text), function (token) {
    if (token.type === 'table' && Array.isArray(token.header) && token.header.length > widest) widest = token.header.length;
  });
  return widest;
}
