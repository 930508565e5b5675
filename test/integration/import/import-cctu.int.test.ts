import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { CctuTaskSchema, type CctuTask } from '../../../src/schemas/cctu-task.ts';
import { AUTHOR_FINDER, writeCctuFixture } from '../../support/cctu-fixture.ts';

/** Runs the CLI in-process; returns the exit status and what it wrote to stderr. */
async function sandbox(...argv: string[]): Promise<{ code: number; stderr: string }> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  const quiet = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return { code: await main(argv), stderr: chunks.join('') };
  } finally {
    spy.mockRestore();
    quiet.mockRestore();
  }
}

beforeEach(() => {
  process.exitCode = undefined;
});
afterEach(() => {
  process.exitCode = undefined;
});

function readSuite(dir: string): Map<string, CctuTask> {
  return new Map(readdirSync(dir).map((file) => [file, CctuTaskSchema.parse(JSON.parse(readFileSync(path.join(dir, file), 'utf8')))]));
}

const CONSTRAINTS_OF = (task: CctuTask) => task.constraints.map(({ id, category, params }) => ({ id, category, params: category === 'python' ? { name: (params as { name: string }).name, function: (params as { function: string }).function } : category === 'toolset.cctu_arguments' ? {} : params }));

describe('sandbox import cctu', () => {
  it('imports all 200 samples of CCTU\'s format, each constraint as CCTU\'s checker reads it, and lint passes the suite', { timeout: 180_000 }, async () => {
    const fixture = writeCctuFixture();
    const out = path.join(fixture.dir, 'suite');
    const result = await sandbox('import', 'cctu', '--data', fixture.data, '--check-code', fixture.checkCode, '--out', out);
    expect(result.code).toBe(0);
    const suite = readSuite(out);
    expect(suite.size).toBe(200);
    expect([...suite.keys()]).toEqual(expect.arrayContaining(['cctu-0.json', 'cctu-96.json', 'cctu-199.json']));
    // Keys CCTU does not read are accepted and said once: the sample's "answer", the configurations' "parse_error".
    expect(result.stderr.match(/"answer"/g)).toHaveLength(1);
    expect(result.stderr.match(/"parse_error"/g)).toHaveLength(1);
    expect(result.stderr).not.toMatch(/"refine_constraint"|"constraint"/);

    // The structure is data_source (evaluation.py groups by it); the id is the sample number (no "_").
    const sample = (id: number | string) => suite.get(`cctu-${id}.json`)!;
    expect(sample(0)).toMatchObject({ protocol: 'cctu-official', domain: 'Single-Hop', limits: { maxRounds: 20, toolTimeoutMs: 10_000 }, grading: { structure: 'Single-Hop', dataSource: 'Single-Hop' } });
    expect(sample(199).grading.structure).toBe('Parallel Multi-Hop');
    expect(sample(0).metadata.cctu).toMatchObject({ id: '0', data_source: 'Single-Hop', answer: 'Herman Melville, New York City', messages: expect.any(Array) });
    expect(sample(0).tools[0]).toEqual({
      name: 'author_finder',
      description: 'Finds the author of a book.',
      parameters: { type: 'object', properties: { book: { type: 'string', description: 'the book title' } }, required: ['book'] },
      implementation: AUTHOR_FINDER,
      language: 'python',
    });
    // CCTU's argument check closes every task's list, on the sample's tools text as released.
    expect(sample(0).constraints.at(-1)).toEqual({ id: 'toolset-cctu-arguments', category: 'toolset.cctu_arguments', params: { tools: JSON.parse(readFileSync(fixture.data, 'utf8').split('\n')[0]!).tools } });

    // Every registry pair, in the handler order, with CCTU's numbers (to_int: "inf" is no maximum) and CCTU's wording.
    const byFamily = (family: string) => sample(fixture.samples.find((entry) => entry.family === family)!.id);
    expect(CONSTRAINTS_OF(byFamily('two-blocks-one-call')).slice(0, 2)).toEqual([
      { id: 'c0-resource-tool-call-count', category: 'resource.tool_call_count', params: { min: 0, max: 2, wording: 'cctu' } },
      { id: 'c1-resource-specific-tool-call-count', category: 'resource.specific_tool_call_count', params: { limits: { author_finder: 1 }, wording: 'cctu' } },
    ]);
    expect(CONSTRAINTS_OF(byFamily('parallel-min-unmet')).slice(0, 2)).toEqual([
      // unit "num" is not "type", so ParallelCallsHandler counts calls.
      { id: 'c0-behavior-parallel-calls-count', category: 'behavior.parallel_calls_count', params: { min: 3, unit: 'times', wording: 'cctu' } },
      { id: 'c1-resource-interaction-rounds', category: 'resource.interaction_rounds', params: { min: 0, max: 4, wording: 'cctu' } },
    ]);
    expect(byFamily('parallel-min-unmet').limits.maxRounds).toBe(4);
    expect(CONSTRAINTS_OF(byFamily('format'))[0]).toEqual({ id: 'c0-response-format', category: 'python', params: { name: 'Format', function: 'validate_format' } });
    expect(CONSTRAINTS_OF(byFamily('identifiers'))[1]).toEqual({ id: 'c1-response-content-1', category: 'python', params: { name: 'Identifiers', function: 'validate_identifiers' } });
    expect(CONSTRAINTS_OF(byFamily('punctuation'))[0]).toEqual({ id: 'c0-response-content-2', category: 'python', params: { name: 'Punctuation', function: 'validate_punctuation' } });
    expect(CONSTRAINTS_OF(byFamily('length-max-chars'))[0]).toEqual({ id: 'c0-response-length', category: 'response.length', params: { min: 0, max: 20, unit: 'chars', wording: 'cctu' } });
    expect(CONSTRAINTS_OF(byFamily('length-min-words'))[0]).toEqual({ id: 'c0-response-length', category: 'response.length', params: { min: 5, unit: 'words', wording: 'cctu' } });
    expect(CONSTRAINTS_OF(byFamily('order'))[0]).toEqual({ id: 'c0-behavior-sequential-dependencies', category: 'behavior.sequential_dependencies', params: { chains: [['author_finder', 'birthplace_finder']], wording: 'cctu' } });
    expect(CONSTRAINTS_OF(byFamily('parallel'))[0]).toEqual({ id: 'c0-behavior-parallel-dependencies', category: 'behavior.parallel_dependencies', params: { groups: [['author_finder', 'birthplace_finder']], wording: 'cctu' } });
    // The three configurations CCTU accepts: an empty order, a group of one tool, and query 96's hard-coded order.
    expect(CONSTRAINTS_OF(byFamily('order-empty'))[0]!.params).toEqual({ chains: [], wording: 'cctu' });
    expect(CONSTRAINTS_OF(byFamily('parallel-one-tool'))[0]!.params).toEqual({ groups: [['author_finder']], wording: 'cctu' });
    expect(CONSTRAINTS_OF(sample(96))[0]!.params).toEqual({
      chains: [['birthplace_finder', 'author_finder']],
      firstTool: { name: 'urban_area_identifier', chains: [['urban_area_identifier', 'business_district_locator', 'business_locator', 'consulting_client_finder', 'corporate_housing_locator', 'rental_price_analyzer']] },
      wording: 'cctu',
    });
    // A unit ResponseLengthHandler does not measure checks nothing, as in CCTU, and the import says so.
    expect(CONSTRAINTS_OF(byFamily('length-other-unit'))[0]!.params).toEqual({ min: 0, unit: 'chars', wording: 'cctu' });
    expect(result.stderr).toMatch(/length unit "tokens" is neither "characters" nor "words"/);

    expect((await sandbox('lint', out)).code).toBe(0);
  });

  const bad: Array<[string, (line: Record<string, unknown>, checks: Record<string, unknown>) => void, RegExp]> = [
    [
      // core.py, _init_handlers prints "cannot registry …" and skips the pair; an import refuses the sample instead.
      'a pair not in HANDLER_REGISTRY',
      (line) => {
        if (line.id === '3') line.constraints_list = [['Response', 'Language', 'Answer in French']];
      },
      /^sandbox: sample 3: constraints_list\[0\] \["Response","Language"\] is not a pair of CCTU's HANDLER_REGISTRY \(utils\/constraint_checker\/handlers\/registry\.py\)\n$/,
    ],
    [
      // The pair is what CCTU matches (lower-cased); the JSON file's own "constraint" words are not.
      'the file\'s own words used as the pair',
      (line) => {
        if (line.id === '2') line.constraints_list = [['Interact', 'Round', 'At most 20']];
      },
      /^sandbox: sample 2: constraints_list\[0\] \["Interact","Round"\] is not a pair of CCTU's HANDLER_REGISTRY/,
    ],
    [
      // core.py, _init_handlers: one handler per constraint, all configuring the one checker (handlers/interact.py,
      // CallTimesHandler.configure sets checker.max_callTimes): a repeated pair is not two constraints there.
      'a pair repeated in one sample',
      (line) => {
        if (line.id === '4') line.constraints_list = [...(line.constraints_list as unknown[]), (line.constraints_list as unknown[])[0]];
      },
      /^sandbox: sample 4: constraints_list\[\d+\] \["Resource","Tool Call Count"\] repeats the pair of constraints_list\[0\]: /,
    ],
    [
      'an id holding the repeat suffix',
      (line) => {
        if (line.id === '1') line.id = '1_0';
      },
      /^sandbox: \S*input_data\.jsonl line 2 \(sample 1_0\): id: the sample number as a string of digits/,
    ],
    [
      'codes without the named tool',
      (line) => {
        if (line.id === '2') line.codes = JSON.stringify({ author_finder: AUTHOR_FINDER, birthplace_finder: 'def where_born(person):\n    return "?"\n' });
      },
      /^sandbox: sample 2 \(codes\["birthplace_finder"\]\): the source does not define birthplace_finder\(\)\n$/,
    ],
    [
      'a .py validator without the function its handler calls',
      (line, checks) => {
        if (line.id === '22') checks['check_constraint_0.py'] = 'def validate_format(response):\n    return True, "ok"\n';
      },
      /^sandbox: sample 22 \(\S*check_code\/22\/check_constraint_0\.py\): the validator does not define validate_punctuation\(\)\n$/,
    ],
    [
      'a configuration without a key its handler reads',
      (line, checks) => {
        if (line.id === '4') checks['check_constraint_0.json'] = { max_callTimes: 2 };
      },
      /^sandbox: sample 4 \(\S*check_constraint_0\.json\): constraints_list\[0\] \["Resource","Tool Call Count"\]: resource\/tool call count needs "min_callTimes" in its configuration/,
    ],
    [
      'an order naming a tool the sample does not list',
      (line, checks) => {
        if (line.id === '12') checks['check_constraint_0.json'] = { order_constraints: [['author_finder', 'isbn_finder']] };
      },
      /^sandbox: sample 12 \(\S*check_constraint_0\.json\): constraints_list\[0\] \["Behavior","Sequential Dependencies"\]: "order_constraints" names tool isbn_finder, which "tools" does not list\n$/,
    ],
    [
      'a tools field that is not JSON text',
      (line) => {
        if (line.id === '2') line.tools = '[{"type": "function"';
      },
      /^sandbox: sample 2: "tools": not valid JSON: /,
    ],
    [
      'a sample without its messages',
      (line) => {
        if (line.id === '3') delete (line as { messages?: unknown }).messages;
      },
      /^sandbox: \S*input_data\.jsonl line 4 \(sample 3\): messages: /,
    ],
    [
      'a missing configuration file',
      (line, checks) => {
        if (line.id === '4') checks['check_constraint_0.json'] = undefined;
      },
      /^sandbox: sample 4 \(\S*check_code\/4\/check_constraint_0\.json\): constraints_list\[0\] \["Resource","Tool Call Count"\]: resource\/tool call count is configured by check_constraint_0\.json, which is missing\n$/,
    ],
  ];

  for (const [name, edit, message] of bad) {
    it(`${name}: one line naming the sample, exit 3, nothing written`, { timeout: 120_000 }, async () => {
      const fixture = writeCctuFixture(edit, 30);
      const out = path.join(fixture.dir, 'suite');
      const result = await sandbox('import', 'cctu', '--data', fixture.data, '--check-code', fixture.checkCode, '--out', out);
      expect(result.stderr).toMatch(message);
      expect(result.code).toBe(3);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(fixture.dir).filter((file) => file.includes('importing'))).toEqual([]);
    });
  }

  it('refuses to write into a folder that already holds files (exit 4)', { timeout: 120_000 }, async () => {
    const fixture = writeCctuFixture(() => {}, 2);
    const result = await sandbox('import', 'cctu', '--data', fixture.data, '--check-code', fixture.checkCode, '--out', path.dirname(fixture.data));
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/already exists and is not empty/);
  });
});
