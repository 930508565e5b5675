/* exported NAME, init, check */
/* global lib */
'use strict';
// What the final answer must carry: a literal start or end, identifiers ([[X]], \boxed{X}, **X**, "X"),
// keywords (case-insensitive), no forbidden keywords, a language, an ending punctuation. All failures of
// one answer are reported in one message. The answer is read as CCTU reads it (lib.answerText:
// <think>…</think> removed, white space trimmed).
const NAME = 'RESPONSE CONTENT';

const IDENTIFIERS = {
  'double-brackets': [/\[\[[^[\]\n]+\]\]/u, 'the answer enclosed in double square brackets, e.g. [[X]]'],
  boxed: [/\\boxed\{[^}\n]+\}/u, 'the answer in a LaTeX box, e.g. $\\boxed{X}$'],
  bold: [/\*\*[^*\n]+\*\*/u, 'the answer in bold, e.g. **X**'],
  quotes: [/"[^"\n]+"|\u201c[^\u201d\n]+\u201d/u, 'the answer in double quotes, e.g. "X"'],
};

// Frequent function words: the language whose words are most frequent wins (deterministic, no model).
const STOPWORDS = {
  en: ['the', 'and', 'is', 'of', 'to', 'in', 'that', 'it', 'was', 'for', 'with', 'are', 'this', 'by', 'on'],
  fr: ['le', 'la', 'les', 'et', 'est', 'des', 'du', 'une', 'dans', 'que', 'pour', 'qui', 'sur', 'pas', 'au'],
  de: ['der', 'die', 'das', 'und', 'ist', 'nicht', 'ein', 'eine', 'mit', 'den', 'von', 'zu', 'auf', 'sich', 'dem'],
  es: ['el', 'los', 'las', 'y', 'es', 'del', 'una', 'que', 'por', 'con', 'para', 'como', 'pero', 'su', 'se'],
};
const LANGUAGE_NAMES = { en: 'English', zh: 'Chinese', fr: 'French', de: 'German', es: 'Spanish' };

function init(params) {
  return params;
}

function detectLanguage(text) {
  const han = (text.match(/\p{Script=Han}/gu) || []).length;
  const letters = (text.match(/\p{L}/gu) || []).length;
  if (letters > 0 && han / letters >= 0.3) return 'zh';
  const words = text.toLowerCase().split(/[^\p{L}]+/u).filter(function (word) { return word !== ''; });
  let best = 'en';
  let bestCount = 0;
  for (const language of Object.keys(STOPWORDS)) {
    const list = STOPWORDS[language];
    const count = words.filter(function (word) { return list.indexOf(word) >= 0; }).length;
    if (count > bestCount) {
      best = language;
      bestCount = count;
    }
  }
  return best;
}

function problems(params, text) {
  const found = [];
  if (params.startsWith !== undefined && !text.startsWith(params.startsWith)) found.push('it must begin with "' + params.startsWith + '"');
  if (params.endsWith !== undefined && !text.endsWith(params.endsWith)) found.push('it must end with "' + params.endsWith + '"');
  for (const identifier of params.identifiers || []) {
    const entry = IDENTIFIERS[identifier];
    if (!entry[0].test(text)) found.push('it must contain ' + entry[1]);
  }
  const lower = text.toLowerCase();
  const missing = (params.keywords || []).filter(function (keyword) { return lower.indexOf(keyword.toLowerCase()) < 0; });
  if (missing.length > 0) found.push('it must mention ' + missing.map(function (keyword) { return '"' + keyword + '"'; }).join(', '));
  const forbidden = (params.forbiddenKeywords || []).filter(function (keyword) { return lower.indexOf(keyword.toLowerCase()) >= 0; });
  if (forbidden.length > 0) found.push('it must not mention ' + forbidden.map(function (keyword) { return '"' + keyword + '"'; }).join(', '));
  if (params.language !== undefined) {
    const detected = detectLanguage(text);
    if (detected !== params.language) found.push('it must be written in ' + LANGUAGE_NAMES[params.language] + ' (it reads as ' + LANGUAGE_NAMES[detected] + ')');
  }
  if (params.endingPunctuation !== undefined && !text.endsWith(params.endingPunctuation)) {
    found.push('it must end with "' + params.endingPunctuation + '" (it ends with "' + Array.from(text).slice(-1).join('') + '")');
  }
  return found;
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'final-answer') return { verdicts: verdicts, state: state };
  const found = problems(state, lib.answerText(step.content));
  if (found.length > 0) {
    verdicts.push({ effect: 'reject-answer', message: 'In the final answer, ' + found.join('; ') + '. Rewrite the final answer accordingly.' });
  }
  return { verdicts: verdicts, state: state };
}
