import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A small benchmark in exactly CCTU's released format (input_data.jsonl + check_code/<query_id>/check_constraint_<i>
// .json|.py), written for these tests: Python tools, JSON configurations, .py response validators. Four samples over
// two data sources and two structures; one script (SCRIPT) plays all four. The expected scores, by CCTU's rules:
//   1_single_hop (literature): golden author_finder "Herman Melville" found; the answer ends with a period → SR 1, PSR 1
//   2_multi_hop (literature): both goldens found; the first answer lacks "Final Answer:" → feedback, the second is
//     accepted → SR 1 (no feedback after the last assistant message), PSR 0
//   3_single_hop (geography): at most 1 tool call, so the second call is blocked (error feedback) → SR 1, PSR 0
//   4_multi_hop (geography): golden birthplace_finder "Boston" is in no tool message → SR 0, PSR 0

export const AUTHOR_FINDER = `BOOKS = {"moby-dick": "Herman Melville", "emma": "Jane Austen"}


def author_finder(book):
    author = BOOKS.get(book.lower())
    if author is None:
        return {"error": "no book named " + book}
    return {"book": book, "author": author}
`;

export const BIRTHPLACE_FINDER = `def birthplace_finder(person):
    places = {"Herman Melville": ["New York City", "New York"], "Jane Austen": ["Steventon", "Hampshire"]}
    return ", ".join(places.get(person, ["unknown"]))
`;

const TOOLS = [
  { type: 'function', function: { name: 'author_finder', description: 'Finds the author of a book.', parameters: { type: 'object', properties: { book: { type: 'string', description: 'the book title' } }, required: ['book'] } } },
  { type: 'function', function: { name: 'birthplace_finder', description: 'Finds where a person was born.', parameters: { type: 'object', properties: { person: { type: 'string' } }, required: ['person'] } } },
];

const PUNCTUATION_PY = `"""
response_constraints_non_length:
- idx 1: ('Response', 'Punctuation', 'The response must end with a period.')
"""
from typing import Tuple


def validate_punctuation(response: str) -> Tuple[bool, str]:
    if response.rstrip().endswith('.'):
        return True, 'ends with a period'
    return False, 'The response must end with a period.'
`;

const IDENTIFIERS_AND_PUNCTUATION_PY = `"""
response_constraints_non_length:
- idx 2: ('Response', 'Identifiers', "The answer must start with 'Final Answer:'.")
- idx 3: ('Response', 'Punctuation', 'The response must end with a period.')
"""
import re
from typing import Tuple


def validate_identifiers(response: str) -> Tuple[bool, str]:
    if re.match(r'^Final Answer:', response):
        return True, 'ok'
    return False, "Begin the answer with 'Final Answer:'."


def validate_punctuation(response: str) -> Tuple[bool, str]:
    return (response.endswith('.'), 'End the answer with a period.')
`;

interface Sample {
  id: string;
  data_source: string;
  constraints: Array<[string, string, string]>;
  checks: Record<string, unknown>;
  unsolved: Record<string, string[]>;
}

export const SAMPLES: Sample[] = [
  {
    id: '1_single_hop',
    data_source: 'literature',
    constraints: [['Interact', 'Round', 'At most 20 including final answer'], ['Response', 'Punctuation', 'The response must end with a period.']],
    checks: { 'check_constraint_0.json': { min_round: 0, max_round: 20, constraint: ['Interact', 'Round', 'At most 20 including final answer'], refine_constraint: 'Answer within 20 rounds, ending with a period.' }, 'check_constraint_1.py': PUNCTUATION_PY },
    unsolved: { author_finder: ['Herman Melville'] },
  },
  {
    id: '2_multi_hop',
    data_source: 'literature',
    constraints: [
      ['Interact', 'Round', 'At most 20 including final answer'],
      ['Tool', 'Max Calls Per Tool', 'At most 1 call to author_finder'],
      ['Response', 'Identifiers', "The answer must start with 'Final Answer:'."],
      ['Response', 'Punctuation', 'The response must end with a period.'],
    ],
    checks: {
      'check_constraint_0.json': { min_round: 0, max_round: 20, constraint: ['Interact', 'Round', 'At most 20 including final answer'] },
      'check_constraint_1.json': { max_calls_per_tool: { author_finder: 1 }, constraint: ['Tool', 'Max Calls Per Tool', 'At most 1 call to author_finder'] },
      'check_constraint_2.py': IDENTIFIERS_AND_PUNCTUATION_PY,
    },
    unsolved: { author_finder: ['Herman Melville'], birthplace_finder: ['New York City'] },
  },
  {
    id: '3_single_hop',
    data_source: 'geography',
    constraints: [['Interact', 'Call Times', 'At most 1'], ['Interact', 'Round', 'At most 20 including final answer']],
    checks: {
      'check_constraint_0.json': { min_callTimes: 0, max_callTimes: 1, constraint: ['Interact', 'Call Times', 'At most 1'] },
      'check_constraint_1.json': { min_round: 0, max_round: 'inf', constraint: ['Interact', 'Round', 'At most 20 including final answer'] },
    },
    unsolved: { author_finder: ['herman melville'] },
  },
  {
    id: '4_multi_hop',
    data_source: 'geography',
    constraints: [['Interact', 'Round', 'At most 20 including final answer'], ['Response', 'Length', 'At most 200 characters']],
    checks: {
      'check_constraint_0.json': { min_round: 0, max_round: 20, constraint: ['Interact', 'Round', 'At most 20 including final answer'] },
      'check_constraint_1.json': { min_responseLength: 0, max_responseLength: 200, unit: 'chars', constraint: ['Response', 'Length', 'At most 200 characters'] },
    },
    unsolved: { author_finder: ['Herman Melville'], birthplace_finder: ['Boston'] },
  },
];

/** The assistant messages of the scripted model that plays every sample (see the expected scores above). */
export const SCRIPT = [
  { toolCalls: [{ name: 'author_finder', arguments: { book: 'Moby-Dick' } }] },
  { toolCalls: [{ name: 'birthplace_finder', arguments: { person: 'Herman Melville' } }] },
  { answer: '<think>The tools said New York City.</think>Herman Melville was born in New York City.' },
  // The reasoning before </think> is not the answer: the validator reads from "Final Answer:" on.
  { answer: '<think>Start with the prefix.</think>\n\nFinal Answer: Herman Melville was born in New York City.' },
];

/** Hand computation with CCTU's rules (see the table at the top), per sample id. */
export const EXPECTED: Record<string, { sr: number; psr: number }> = {
  '1_single_hop': { sr: 1, psr: 1 },
  '2_multi_hop': { sr: 1, psr: 0 },
  '3_single_hop': { sr: 1, psr: 0 },
  '4_multi_hop': { sr: 0, psr: 0 },
};

export interface CctuFixture {
  dir: string;
  data: string;
  checkCode: string;
  script: string;
}

/**
 * Writes the benchmark into a fresh temporary folder. `edit` may change a sample's JSON line or its check files
 * before writing (for bad-input tests).
 */
export function writeCctuFixture(edit: (line: Record<string, unknown>, checks: Record<string, unknown>) => void = () => {}): CctuFixture {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cctu-fixture-'));
  const checkCode = path.join(dir, 'check_code');
  const lines: string[] = [];
  for (const sample of SAMPLES) {
    const checks = structuredClone(sample.checks);
    const line: Record<string, unknown> = {
      id: sample.id,
      data_source: sample.data_source,
      messages: [
        { role: 'system', content: 'You answer questions about books with the tools given. Give the final answer without calling a tool.' },
        { role: 'user', content: `Who wrote Moby-Dick, and where was the author born? Constraints: ${sample.constraints.map((triple) => triple[2]).join(' ')}` },
      ],
      tools: JSON.stringify(TOOLS),
      codes: JSON.stringify({ author_finder: AUTHOR_FINDER, birthplace_finder: BIRTHPLACE_FINDER }),
      constraints_list: sample.constraints,
      unsolved_set: JSON.stringify(sample.unsolved),
    };
    edit(line, checks);
    lines.push(JSON.stringify(line));
    const folder = path.join(checkCode, String(line.id).split('_')[0]!);
    mkdirSync(folder, { recursive: true });
    for (const [file, content] of Object.entries(checks)) {
      if (content !== undefined) writeFileSync(path.join(folder, file), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    }
  }
  const data = path.join(dir, 'input_data.jsonl');
  writeFileSync(data, `${lines.join('\n')}\n`);
  const script = path.join(dir, 'script.json');
  writeFileSync(script, JSON.stringify(SCRIPT, null, 2));
  return { dir, data, checkCode, script };
}
