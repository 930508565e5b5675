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

describe('sandbox import cctu', () => {
  it('converts every sample losslessly and lint passes the suite', { timeout: 120_000 }, async () => {
    const fixture = writeCctuFixture();
    const out = path.join(fixture.dir, 'suite');
    expect((await sandbox('import', 'cctu', '--data', fixture.data, '--check-code', fixture.checkCode, '--out', out)).code).toBe(0);
    const suite = readSuite(out);
    expect([...suite.keys()].sort()).toEqual(['cctu-1_single_hop.json', 'cctu-2_multi_hop.json', 'cctu-3_single_hop.json', 'cctu-4_multi_hop.json']);

    const multi = suite.get('cctu-2_multi_hop.json')!;
    expect(multi).toMatchObject({ protocol: 'cctu-official', domain: 'literature', limits: { maxRounds: 20, toolTimeoutMs: 10_000 } });
    expect(multi.grading).toEqual({
      structure: 'multi_hop',
      dataSource: 'literature',
      subqueries: [
        { query: '', tool: 'author_finder', answer: 'Herman Melville' },
        { query: '', tool: 'birthplace_finder', answer: 'New York City' },
      ],
    });
    // Tools keep their Python source and schema.
    expect(multi.tools[0]).toEqual({
      name: 'author_finder',
      description: 'Finds the author of a book.',
      parameters: { type: 'object', properties: { book: { type: 'string', description: 'the book title' } }, required: ['book'] },
      implementation: AUTHOR_FINDER,
      language: 'python',
    });
    // Each CCTU constraint → our category with CCTU's numbers; both response validators come from the one .py file
    // that lists them; CCTU's three toolset checks close the list.
    expect(multi.constraints.map(({ id, category, params }) => ({ id, category, params: category === 'python' ? { function: (params as { function: string }).function } : params }))).toEqual([
      { id: 'c0-interact-round', category: 'resource.interaction_rounds', params: { min: 0, max: 20 } },
      { id: 'c1-tool-max-calls-per-tool', category: 'resource.specific_tool_call_count', params: { limits: { author_finder: 1 } } },
      { id: 'c2-response-identifiers', category: 'python', params: { function: 'validate_identifiers' } },
      { id: 'c3-response-punctuation', category: 'python', params: { function: 'validate_punctuation' } },
      { id: 'toolset-available-tools', category: 'toolset.available_tools', params: {} },
      { id: 'toolset-required-parameters', category: 'toolset.required_parameters', params: {} },
      { id: 'toolset-parameter-types', category: 'toolset.parameter_types', params: {} },
    ]);
    // "inf" sets no maximum of its own, so CCTU's 20-round cap applies (constraints/README.md, rule 1); CCTU's unit
    // "chars" stays chars.
    expect(suite.get('cctu-3_single_hop.json')!.constraints[1]).toMatchObject({ category: 'resource.interaction_rounds', params: { min: 0, max: 20 } });
    expect(suite.get('cctu-4_multi_hop.json')!.constraints[1]).toMatchObject({ category: 'response.length', params: { min: 0, max: 200, unit: 'chars' } });
    // The original sample stays in the metadata.
    expect(multi.metadata.cctu).toMatchObject({ id: '2_multi_hop', data_source: 'literature', constraints_list: expect.any(Array), messages: expect.any(Array) });

    expect((await sandbox('lint', out)).code).toBe(0);
  });

  const bad: Array<[string, (line: Record<string, unknown>, checks: Record<string, unknown>) => void, RegExp]> = [
    [
      'codes without the named tool',
      (line) => {
        if (line.id === '2_multi_hop') line.codes = JSON.stringify({ author_finder: AUTHOR_FINDER, birthplace_finder: 'def where_born(person):\n    return "?"\n' });
      },
      /^sandbox: sample 2_multi_hop \(codes\["birthplace_finder"\]\): the source does not define birthplace_finder\(\)\n$/,
    ],
    [
      'a .py validator without the expected function',
      (line, checks) => {
        if (line.id === '1_single_hop') checks['check_constraint_1.py'] = 'def validate_format(response):\n    return True, "ok"\n';
      },
      /^sandbox: sample 1_single_hop \(\S*check_code\/1\/check_constraint_1\.py\): the validator does not define validate_punctuation\(\)\n$/,
    ],
    [
      'a constraint with no counterpart',
      (line, checks) => {
        if (line.id === '4_multi_hop') {
          line.constraints_list = [['Interact', 'Round', 'At most 20'], ['Response', 'Language', 'Answer in French']];
          checks['check_constraint_1.json'] = { language: 'fr' };
        }
      },
      /^sandbox: sample 4_multi_hop \(\S*check_code\/4\/check_constraint_1\.json\): constraint 1 \["Response","Language"\]: Response\/Language has no counterpart/,
    ],
    [
      'a configuration key the mapping does not know',
      (line, checks) => {
        if (line.id === '3_single_hop') checks['check_constraint_0.json'] = { min_callTimes: 0, max_callTimes: 1, per_round: 1 };
      },
      /^sandbox: sample 3_single_hop \(\S*check_constraint_0\.json\): constraint 0 \["Interact","Call Times"\]: unknown configuration key "per_round"\n$/,
    ],
    [
      // The sample's `tools` field is JSON text (the format); text that does not parse names the sample and field.
      'a tools field that is not JSON text',
      (line) => {
        if (line.id === '2_multi_hop') line.tools = '[{"type": "function"';
      },
      /^sandbox: sample 2_multi_hop: "tools": not valid JSON: /,
    ],
    [
      // A line without a required field names the file, the line and the sample it claims to be.
      'a sample without its messages',
      (line) => {
        if (line.id === '3_single_hop') delete (line as { messages?: unknown }).messages;
      },
      /^sandbox: \S*input_data\.jsonl line 3 \(sample 3_single_hop\): messages: /,
    ],
    [
      'a missing configuration file',
      (line, checks) => {
        if (line.id === '3_single_hop') checks['check_constraint_0.json'] = undefined;
      },
      /^sandbox: sample 3_single_hop \(\S*check_constraint_0\.json\): constraint 0 \["Interact","Call Times"\]: Interact\/Call Times needs a JSON configuration/,
    ],
  ];

  for (const [name, edit, message] of bad) {
    it(`${name}: one line naming the sample and the file, exit 3, nothing written`, { timeout: 120_000 }, async () => {
      const fixture = writeCctuFixture(edit);
      const out = path.join(fixture.dir, 'suite');
      const result = await sandbox('import', 'cctu', '--data', fixture.data, '--check-code', fixture.checkCode, '--out', out);
      expect(result.stderr).toMatch(message);
      expect(result.code).toBe(3);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(fixture.dir).filter((file) => file.includes('importing'))).toEqual([]);
    });
  }

  it('refuses to write into a folder that already holds files (exit 4)', { timeout: 120_000 }, async () => {
    const fixture = writeCctuFixture();
    const result = await sandbox('import', 'cctu', '--data', fixture.data, '--check-code', fixture.checkCode, '--out', path.dirname(fixture.data));
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/already exists and is not empty/);
  });
});
