import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A 200-sample benchmark in CCTU's released format, built from what CCTU's code reads (github Junjie-Ye/CCTU; none
// of its files is copied):
// - input_data.jsonl, one sample a line (response_generator.py and evaluation.py, main: json.loads per line):
//   `id` the sample number as a string, no "_" (core.py: int(id.split("_")[0]) names check_code/<id>/; the harness
//   appends "_<repeat>"), `data_source` one of the four structures (evaluation.py groups by it), `messages` (the
//   conversation's start, response_generator.py sample_process), `tools` / `codes` / `unsolved_set` as JSON text
//   (json.loads in core.py, get_feedback, judge), `constraints_list` of [primary, secondary, description] whose pair,
//   lower-cased, is a key of HANDLER_REGISTRY (handlers/registry.py), and an extra key CCTU ignores (`answer`).
// - check_code/<id>/check_constraint_<i>.json for the JSON handlers, with the keys each `configure` reads
//   (handlers/interact.py, tool.py, response.py), CCTU's own `refine_constraint` / `constraint` keys (the latter in
//   the other words CCTU's files use, ["Interact", "Round", …], not what it matches on) and an ignored `parse_error`;
//   check_constraint_<i>.py for the three Python handlers, defining validate_format / validate_identifiers /
//   validate_punctuation (response.py: call_validator(path, name, content) → (ok, msg)).
// Every registry pair appears, and the three configurations the old importer refused: an empty order_constraints,
// a parallel group of one tool, and sample 96, for which ToolOrderHandler.check hard-codes its order.
//
// One scripted model (SCRIPT) plays every sample. Each sample belongs to a family; each family's SR / PSR is derived
// by hand below from CCTU's checker and evaluation.py's judge (SR: every golden answer found in a tool message of its
// tool, one per message, and no "INSTRUCTION FOLLOWING ERROR: … NOT FOLLOWED!" after the last assistant message; PSR:
// none anywhere; a conversation ending on a tool message scores 0 / 0: compute_if_flags).
//
// The script: round 1 calls author_finder(Moby-Dick) and birthplace_finder(Herman Melville) in parallel (two distinct
// tools), round 2 calls author_finder(Emma); the tools answer {"book": …, "author": "Herman Melville" | "Jane
// Austen"} and "New York City, New York". Rounds 3… are answers; as CCTU reads them (<think>…</think> removed,
// stripped): A3 = "Herman Melville was born in New York City." (42 characters, 8 words, ends with "."), A4 =
// "**Herman Melville**" (19 characters, 2 words, bold only), A5… = "Final Answer: [[Herman Melville]]." (34 characters,
// 4 words, holds [[…]], ends with ".").

export const AUTHOR_FINDER = `BOOKS = {"moby-dick": "Herman Melville", "emma": "Jane Austen"}


def author_finder(book):
    author = BOOKS.get(book.lower())
    if author is None:
        return {"error": "no book named " + book}
    return {"book": book, "author": author}
`;

const BIRTHPLACE_FINDER = `def birthplace_finder(person):
    places = {"Herman Melville": ["New York City", "New York"], "Jane Austen": ["Steventon", "Hampshire"]}
    return ", ".join(places.get(person, ["unknown"]))
`;

const URBAN_AREA_IDENTIFIER = `def urban_area_identifier(city):
    return {"city": city, "urban_area": city + " metropolitan area"}
`;

type Schema = Record<string, unknown>;
const tool = (name: string, description: string, properties: Schema, required: string[]) => ({ type: 'function', function: { name, description, parameters: { type: 'object', properties, required } } });
const TOOLS = (book: Schema = { type: 'string', description: 'the book title' }) => [
  tool('author_finder', 'Finds the author of a book.', { book }, ['book']),
  tool('birthplace_finder', 'Finds where a person was born.', { person: { type: 'string' } }, ['person']),
];

const FORMAT_PY = `"""
response_constraints_non_length:
- idx 0: ('Response', 'Format', 'The answer must be one bold Markdown segment.')
"""
import re
from typing import Tuple

BOLD_ONLY = re.compile(r'^\\s*\\*\\*(.+?)\\*\\*\\s*$')


def validate_format(response: str) -> Tuple[bool, str]:
    if BOLD_ONLY.match(response):
        return True, "The response is one bold segment."
    return False, "The response must be exactly one bold Markdown segment, e.g. **Herman Melville**."
`;

const IDENTIFIERS_PY = `import re


def validate_identifiers(response):
    if re.search(r'\\[\\[[^\\]]+\\]\\]', response):
        return (True, 'ok')
    return (False, 'Wrap the answer in double square brackets, e.g. [[X]].\\n')
`;

const PUNCTUATION_PY = `def validate_punctuation(response: str):
    ok = response.rstrip().endswith('.')
    return ok, 'ends with a period' if ok else 'The response must end with a period.'
`;

/** The constraint [primary, secondary, description] of each handler pair (registry.py's keys, in CCTU's casing). */
const PAIR = {
  rounds: ['Resource', 'Interaction Rounds'],
  calls: ['Resource', 'Tool Call Count'],
  perTool: ['Resource', 'Specific Tool Call Count'],
  parallelCount: ['Behavior', 'Parallel Calls Count'],
  order: ['Behavior', 'Sequential Dependencies'],
  parallel: ['Behavior', 'Parallel Dependencies'],
  length: ['Response', 'Length'],
  format: ['Response', 'Format'],
  identifiers: ['Response', 'Content_1'],
  punctuation: ['Response', 'Content_2'],
} as const;

/** The words CCTU's own files put in a configuration's `constraint` key (not what it matches on). */
const FILE_WORDS: Record<keyof typeof PAIR, [string, string]> = {
  rounds: ['Interact', 'Round'],
  calls: ['Interact', 'Call Times'],
  perTool: ['Tool', 'Max Calls Per Tool'],
  parallelCount: ['Interact', 'Parallel Calls'],
  order: ['Tool', 'Tool Order'],
  parallel: ['Tool', 'Tool Parallel'],
  length: ['Response', 'Length'],
  format: ['Response', 'Format'],
  identifiers: ['Response', 'Identifiers'],
  punctuation: ['Response', 'Punctuation'],
};

type Check = { pair: keyof typeof PAIR; config?: Record<string, unknown>; python?: string };

interface Family {
  /** What the family tests, and why its score is what it is (by CCTU's rules). */
  why: string;
  checks: Check[];
  unsolved: Record<string, string[]>;
  tools?: unknown[];
  sr: 0 | 1;
  psr: 0 | 1;
}

const ROUNDS_20: Check = { pair: 'rounds', config: { min_round: 0, max_round: 20 } };
const MELVILLE = { author_finder: ['Herman Melville'] };

/** The families, by name; SR / PSR derived by hand from CCTU's rules (see the script above). */
export const FAMILIES: Record<string, Family> = {
  plain: { why: 'no check fails; Melville is in round 1\'s author_finder output; A3 accepted', checks: [ROUNDS_20], unsolved: MELVILLE, sr: 1, psr: 1 },
  'golden-missing': { why: 'Boston is in no birthplace_finder output', checks: [ROUNDS_20], unsolved: { birthplace_finder: ['Boston'] }, sr: 0, psr: 0 },
  'golden-pieces': { why: 'golden "New York City, New York" splits on ", " and both pieces are in the output', checks: [ROUNDS_20], unsolved: { birthplace_finder: ['New York City, New York'] }, sr: 1, psr: 1 },
  'two-goldens-one-tool': { why: 'Melville in round 1\'s output, Austen in round 2\'s: one golden per tool message', checks: [], unsolved: { author_finder: ['Herman Melville', 'Jane Austen'] }, sr: 1, psr: 1 },
  'call-count': { why: 'at most 2 calls: round 2\'s call is the 3rd, blocked (MAX CALL TIMES) before the last assistant message', checks: [{ pair: 'calls', config: { min_callTimes: 0, max_callTimes: 2 } }], unsolved: MELVILLE, sr: 1, psr: 0 },
  'call-count-min': { why: 'at least 4 calls: only 3 are made, so every answer gets MIN CALL TIMES until round 20 ends it', checks: [{ pair: 'calls', config: { min_callTimes: 4, max_callTimes: 'inf' } }], unsolved: MELVILLE, sr: 0, psr: 0 },
  'per-tool': { why: 'author_finder at most once: round 2\'s call blocked', checks: [{ pair: 'perTool', config: { max_calls_per_tool: { author_finder: 1 } } }], unsolved: MELVILLE, sr: 1, psr: 0 },
  'two-blocks-one-call': { why: 'round 2\'s call is blocked by both the call count and the per-tool limit: one tool message, both errors', checks: [{ pair: 'calls', config: { min_callTimes: 0, max_callTimes: 2 } }, { pair: 'perTool', config: { max_calls_per_tool: { author_finder: 1, birthplace_finder: 'inf' } } }], unsolved: MELVILLE, sr: 1, psr: 0 },
  'parallel-max': { why: 'at most 1 distinct tool a step: round 1\'s birthplace_finder is blocked; Melville still found', checks: [{ pair: 'parallelCount', config: { min_parallelCallTypes: 0, max_parallelCallTypes: 1, unit: 'type' } }], unsolved: MELVILLE, sr: 1, psr: 0 },
  'parallel-max-golden-blocked': { why: 'as parallel-max, but the golden is the blocked call\'s: never found', checks: [{ pair: 'parallelCount', config: { min_parallelCallTypes: 0, max_parallelCallTypes: 1, unit: 'type' } }], unsolved: { birthplace_finder: ['New York City'] }, sr: 0, psr: 0 },
  'parallel-min': { why: 'at least 2 distinct tools in some step: round 1 has 2', checks: [{ pair: 'parallelCount', config: { min_parallelCallTypes: 2, max_parallelCallTypes: 'inf', unit: 'type' } }], unsolved: MELVILLE, sr: 1, psr: 1 },
  'parallel-min-unmet': { why: 'at least 3 in some step, most is 2; 4 rounds at most: A3 and A4 get MIN PARALLEL CALLS, the run ends on feedback', checks: [{ pair: 'parallelCount', config: { min_parallelCallTypes: 3, max_parallelCallTypes: 'inf', unit: 'num' } }, { pair: 'rounds', config: { min_round: 0, max_round: 4 } }], unsolved: MELVILLE, sr: 0, psr: 0 },
  order: { why: 'birthplace_finder after author_finder: in the same step, so blocked (TOOL ORDER); Melville found', checks: [{ pair: 'order', config: { order_constraints: [['author_finder', 'birthplace_finder']] } }], unsolved: MELVILLE, sr: 1, psr: 0 },
  'order-empty': { why: 'order_constraints [] checks nothing (ToolOrderHandler.check returns at once)', checks: [{ pair: 'order', config: { order_constraints: [] } }], unsolved: MELVILLE, sr: 1, psr: 1 },
  'order-reversed': { why: 'author_finder after birthplace_finder: round 1\'s author_finder blocked, round 2\'s (Emma) allowed; Melville never found', checks: [{ pair: 'order', config: { order_constraints: [['birthplace_finder', 'author_finder']] } }], unsolved: MELVILLE, sr: 0, psr: 0 },
  parallel: { why: 'author_finder with birthplace_finder: round 1 has both, round 2\'s lone author_finder is blocked', checks: [{ pair: 'parallel', config: { parallel_groups: [['author_finder', 'birthplace_finder']] } }], unsolved: MELVILLE, sr: 1, psr: 0 },
  'parallel-one-tool': { why: 'a group of one tool is met by calling it', checks: [{ pair: 'parallel', config: { parallel_groups: [['author_finder']] } }], unsolved: MELVILLE, sr: 1, psr: 1 },
  'length-max-chars': { why: 'at most 20 characters: A3 (42) gets MAX LENGTH, A4 (19) is accepted', checks: [{ pair: 'length', config: { min_responseLength: 0, max_responseLength: 20, unit: 'characters' } }], unsolved: MELVILLE, sr: 1, psr: 0 },
  'length-min-words': { why: 'at least 5 words: A3 has 8', checks: [{ pair: 'length', config: { min_responseLength: 5, max_responseLength: 'inf', unit: 'words' } }], unsolved: MELVILLE, sr: 1, psr: 1 },
  'length-other-unit': { why: 'unit "tokens": ResponseLengthHandler checks nothing', checks: [{ pair: 'length', config: { min_responseLength: 100, max_responseLength: 200, unit: 'tokens' } }], unsolved: MELVILLE, sr: 1, psr: 1 },
  format: { why: 'validate_format wants one bold segment: A3 rejected (FORMAT), A4 accepted', checks: [{ pair: 'format', python: FORMAT_PY }, ROUNDS_20], unsolved: MELVILLE, sr: 1, psr: 0 },
  identifiers: { why: 'validate_identifiers wants [[…]]: A3, A4 rejected (IDENTIFIERS), A5 accepted', checks: [ROUNDS_20, { pair: 'identifiers', python: IDENTIFIERS_PY }], unsolved: MELVILLE, sr: 1, psr: 0 },
  punctuation: { why: 'validate_punctuation wants a final ".": A3 has it', checks: [{ pair: 'punctuation', python: PUNCTUATION_PY }], unsolved: MELVILLE, sr: 1, psr: 1 },
  'rounds-max': { why: 'at most 2 rounds: round 2 makes tool calls and the run stops after them, on a tool message', checks: [{ pair: 'rounds', config: { min_round: 0, max_round: 2 } }], unsolved: MELVILLE, sr: 0, psr: 0 },
  'rounds-min': { why: 'at least 4 rounds: A3 (round 3) gets MIN ROUND, A4 (round 4) is accepted', checks: [{ pair: 'rounds', config: { min_round: 4, max_round: 20 } }], unsolved: MELVILLE, sr: 1, psr: 0 },
  'enum-argument': { why: 'book must be "Moby-Dick": round 2\'s Emma is blocked (TOOL ARGUMENTS, value not in enum)', checks: [], tools: TOOLS({ type: 'string', enum: ['Moby-Dick'] }), unsolved: MELVILLE, sr: 1, psr: 0 },
  'unchecked-keyword': { why: 'a maxLength CCTU does not check: nothing is blocked', checks: [], tools: TOOLS({ type: 'string', maxLength: 3 }), unsolved: MELVILLE, sr: 1, psr: 1 },
  'query-96': {
    why: 'sample 96: with order birthplace_finder → author_finder, ToolOrderHandler applies its own chain only when the first tool is urban_area_identifier; here it is author_finder, so no order applies (unlike order-reversed)',
    checks: [{ pair: 'order', config: { order_constraints: [['birthplace_finder', 'author_finder']] } }],
    tools: [...TOOLS(), tool('urban_area_identifier', 'Names the urban area of a city.', { city: { type: 'string' } }, ['city'])],
    unsolved: MELVILLE,
    sr: 1,
    psr: 1,
  },
};

/** The family of sample `index` (sample 96 is query-96; the others cycle through the rest). */
const CYCLE = Object.keys(FAMILIES).filter((name) => name !== 'query-96');
export function familyOf(index: number): string {
  return index === 96 ? 'query-96' : CYCLE[index % CYCLE.length]!;
}

/** evaluation.py groups by data_source; a sample's is fixed by its index. */
export const DATA_SOURCES = ['Single-Hop', 'Parallel Single-Hop', 'Multi-Hop', 'Parallel Multi-Hop'] as const;
export const dataSourceOf = (index: number): string => DATA_SOURCES[Math.floor(index / 50) % 4]!;

const answer = (text: string) => ({ answer: text });
/** The scripted model's assistant messages, one per round (20: CCTU's most). */
export const SCRIPT = [
  { toolCalls: [{ name: 'author_finder', arguments: { book: 'Moby-Dick' } }, { name: 'birthplace_finder', arguments: { person: 'Herman Melville' } }] },
  { toolCalls: [{ name: 'author_finder', arguments: { book: 'Emma' } }] },
  answer('<think>Both found.</think>Herman Melville was born in New York City.'),
  answer('<THINK>Bold only.</THINK>\n**Herman Melville**'),
  ...Array.from({ length: 16 }, () => answer('Final Answer: [[Herman Melville]].')),
];

export interface CctuFixture {
  dir: string;
  data: string;
  checkCode: string;
  script: string;
  /** Samples written, by id: their family and data source. */
  samples: Array<{ id: string; family: string; dataSource: string }>;
}

/**
 * Writes the benchmark (`count` samples, 200 by default) into a fresh temporary folder. `edit` may change a sample's
 * JSON line or its check files (by file name) before writing, for bad-input tests.
 */
export function writeCctuFixture(edit: (line: Record<string, unknown>, checks: Record<string, unknown>) => void = () => {}, count = 200): CctuFixture {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cctu-fixture-'));
  const checkCode = path.join(dir, 'check_code');
  const lines: string[] = [];
  const samples: CctuFixture['samples'] = [];
  for (let index = 0; index < count; index++) {
    const id = String(index);
    const familyName = familyOf(index);
    const family = FAMILIES[familyName]!;
    const constraints = family.checks.map((check, position): [string, string, string] => [...PAIR[check.pair], `${familyName} constraint ${position}`]);
    const checks: Record<string, unknown> = {};
    family.checks.forEach((check, position) => {
      if (check.python !== undefined) checks[`check_constraint_${position}.py`] = check.python;
      else checks[`check_constraint_${position}.json`] = { ...check.config, refine_constraint: ` Answer with the tools (${familyName}).`, constraint: [...FILE_WORDS[check.pair], `${familyName} constraint ${position}`], parse_error: false };
    });
    const tools = family.tools ?? TOOLS();
    const codes: Record<string, string> = { author_finder: AUTHOR_FINDER, birthplace_finder: BIRTHPLACE_FINDER };
    if (tools.length > 2) codes.urban_area_identifier = URBAN_AREA_IDENTIFIER;
    const line: Record<string, unknown> = {
      id,
      data_source: dataSourceOf(index),
      messages: [
        { role: 'system', content: 'You answer questions about books with the tools given. Give the final answer without calling a tool.' },
        { role: 'user', content: `Who wrote Moby-Dick, and where was the author born? (${familyName}) Constraints: ${constraints.map((triple) => triple[2]).join('; ')}` },
      ],
      tools: JSON.stringify(tools),
      codes: JSON.stringify(codes),
      constraints_list: constraints,
      unsolved_set: JSON.stringify(family.unsolved),
      answer: 'Herman Melville, New York City',
    };
    edit(line, checks);
    lines.push(JSON.stringify(line));
    samples.push({ id: String(line.id), family: familyName, dataSource: String(line.data_source) });
    const folder = path.join(checkCode, String(line.id));
    mkdirSync(folder, { recursive: true });
    for (const [file, content] of Object.entries(checks)) {
      if (content !== undefined) writeFileSync(path.join(folder, file), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    }
  }
  const data = path.join(dir, 'input_data.jsonl');
  writeFileSync(data, `${lines.join('\n')}\n`);
  const script = path.join(dir, 'script.json');
  writeFileSync(script, JSON.stringify(SCRIPT, null, 2));
  return { dir, data, checkCode, script, samples };
}
