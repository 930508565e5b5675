import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { EXIT_CODES } from '../../../src/cli/exit-codes.ts';
import { DdrTaskSchema, type DdrTask } from '../../../src/schemas/ddr-task.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { startOpenAIServer, chatCompletion } from '../../support/openai-wire.ts';
import { sandbox as sandboxProcess } from '../../support/sandbox-cli.ts';
import type { LoopbackServer, RecordedRequest } from '../../support/loopback-server.ts';

const FIXTURE = path.join(REPO_ROOT, 'test/fixtures/ddr-bench');

/** Runs the CLI in-process (so the loopback judge in this process answers); its exit status and output. */
async function sandbox(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const err: string[] = [];
  const out: string[] = [];
  const spyErr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (err.push(String(chunk)), true));
  const spyOut = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  try {
    return { code: await main(argv), stdout: out.join(''), stderr: err.join('') };
  } finally {
    spyErr.mockRestore();
    spyOut.mockRestore();
  }
}

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ddr-bench-import-'));
  // A real SQLite file as DDR-Bench's 10-K database is one; the import serves it through the SQLite backend.
  db = path.join(dir, 'filings.sqlite');
  const sqlite = new Database(db);
  sqlite.exec(`CREATE TABLE companies (cik TEXT PRIMARY KEY, name TEXT);
    INSERT INTO companies VALUES ('1001', 'Alder Works'), ('1002', 'Birch Mills'), ('1003', 'Cedar Labs');
    CREATE TABLE facts (cik TEXT, fiscal_year INTEGER, fact_name TEXT, value REAL);
    INSERT INTO facts VALUES ('1001', 2022, 'Revenues', 40.0), ('1001', 2023, 'Revenues', 44.8), ('1002', 2023, 'Cash', 8.0);
    CREATE TABLE wearers (pid TEXT, term TEXT, sleep_minutes INTEGER);
    INSERT INTO wearers VALUES ('INS-W_7', 'spring', 400), ('INS-W_7', 'summer', 430);`);
  sqlite.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  process.exitCode = undefined;
});
afterEach(() => {
  process.exitCode = undefined;
});

function readSuite(suite: string): Map<string, DdrTask> {
  return new Map(readdirSync(suite).map((file) => [file, DdrTaskSchema.parse(JSON.parse(readFileSync(path.join(suite, file), 'utf8')))]));
}

describe('sandbox import ddr-bench', () => {
  it('turns a DDR-Bench-shaped qa.json into DDR tasks of text items, with the prompts read from the checkout', async () => {
    const out = path.join(dir, 'suite-10k');
    const result = await sandbox('import', 'ddr-bench', '--repo', FIXTURE, '--scenario', '10k', '--db', db, '--out', out);
    expect(result.code).toBe(0);
    // 1009 is in qa.json only, 1003 in entity_ids.json only: both left out, each said once (run_evaluation.py evaluates common entities).
    expect(result.stderr).toContain('1 entity of qa.json not in entity_ids.json left out');
    expect(result.stderr).toContain("1 entity of entity_ids.json without a checklist in qa.json left out");
    const suite = readSuite(out);
    expect([...suite.keys()].sort()).toEqual(['ddr-bench-10k-1001.json', 'ddr-bench-10k-1002.json']);
    const task = suite.get('ddr-bench-10k-1001.json')!;
    // run_agent.py (fixture): task = f"Study filer {cik} closely"; prompt_manager.py (fixture): base, then the finish
    // instruction (auto_finish), then f"\n\nTASK: {task}", then "\n\nOne tool per turn." — by hand:
    expect(task.query).toBe('Study filer 1001 closely');
    expect(task.system).toBe('Fixture agent: explore the database.\nEnd with "FINISH:" and your findings.\n\nTASK: Study filer 1001 closely\n\nOne tool per turn.');
    expect(task.grading.checklist.map((item) => [item.id, item.answer_type, item.answer])).toEqual([
      ['q1', 'text', 'Revenue rose from 40.0 to 44.8 million, up 12 %.'],
      ['q2', 'text', 'Long-term debt is about half of equity (0.5).'],
      ['q3', 'text', 'Yes: net income of 3.1 million in 2023.'],
    ]);
    expect(task.grading.judge_protocol).toBe('ddr-bench');
    expect(task.grading.ddr_bench?.use_qa_accuracy).toBe(false);
    expect(task.grading.ddr_bench?.prompts.chat_user).toBe('Context:\n{context}\n\nQuestion: {question}\nReference: {ground_truth}\nBraces stay literal: {{json}}');
    // The message-wise prompts (get_prompts("10k")), and the insight prompts of agent/prompt_manager.py (fixture), whose
    // parameters (reasoning, result, goal) are renamed by position, filled later with this entity's task sentence.
    expect(task.grading.ddr_bench?.prompts.message_user).toBe('Messages:\n{numbered_context}\nQuestion: {question}\nReference: {ground_truth}');
    expect(task.grading.ddr_bench?.insight).toEqual({
      system: 'Fixture insight system.',
      user: 'Fixture insight writer. Goal: {task}\nWhy the tool ran: {assistant_content}\nWhat came back: {user_content}\nBraces stay literal: {{x}}. Reply NO INSIGHT when nothing was learned.',
      task: 'Study filer 1001 closely',
    });
    // The integer id 1002 is entity "1002" (str(entity_id)), found in the database, where most of the ids are: companies.cik.
    expect(suite.get('ddr-bench-10k-1002.json')!.grading.entity).toEqual({ kind: 'company', id: '1002', key: { table: 'companies', column: 'cik' } });
    expect(task.environment.servers).toEqual([{ name: 'sql', options: { dbPath: db } }]);
  });

  it('an entity the database does not hold, and an entry without qa_pairs: one line naming it, exit 3, nothing written', async () => {
    const broken = path.join(dir, 'broken');
    cpSync(FIXTURE, broken, { recursive: true });
    const qaFile = path.join(broken, 'data/10k/qa.json');
    const qa = JSON.parse(readFileSync(qaFile, 'utf8')) as { results: Array<Record<string, unknown>> };
    writeFileSync(path.join(broken, 'data/10k/entity_ids.json'), JSON.stringify(['1001', '1002', '4242']));
    writeFileSync(qaFile, JSON.stringify({ results: [...qa.results, { entity_id: '4242', qa_pairs: [{ question: 'q?', answer: 'a.' }] }] }));
    const out = path.join(dir, 'never');
    const missing = await sandbox('import', 'ddr-bench', '--repo', broken, '--scenario', '10k', '--db', db, '--out', out);
    expect(missing.code).toBe(EXIT_CODES['invalid-task']);
    expect(missing.stderr).toBe(`sandbox: ${qaFile}: entity 4242 is not in ${db} (no cik equal to it in any table)\n`);
    expect(existsSync(out)).toBe(false);

    writeFileSync(qaFile, JSON.stringify({ results: [qa.results[0], { entity_id: '1002' }] }));
    const noPairs = await sandbox('import', 'ddr-bench', '--repo', broken, '--scenario', '10k', '--db', db, '--out', out);
    expect(noPairs.code).toBe(EXIT_CODES['invalid-task']);
    expect(noPairs.stderr).toBe(`sandbox: ${qaFile} results[1] (entity 1002): no "qa_pairs"\n`);
    expect(existsSync(out)).toBe(false);
    // A database without the entity column is bad input (exit 4), named with the column.
    const noColumn = await sandbox('import', 'ddr-bench', '--repo', FIXTURE, '--scenario', '10k', '--db', db, '--out', out, '--entity-column', 'ticker');
    expect([noColumn.code, noColumn.stderr]).toEqual([EXIT_CODES['invalid-input'], `sandbox: ${db}: no table has a column ticker to find the entities in\n`]);
    // A checkout whose get_prompts lacks the message-wise prompts (evaluate_entity needs them): bad input, named.
    const promptsFile = path.join(broken, 'evaluate/prompts.py');
    writeFileSync(promptsFile, readFileSync(path.join(FIXTURE, 'evaluate/prompts.py'), 'utf8').replace('"message_system": FIN_MESSAGE_SYSTEM,', ''));
    writeFileSync(qaFile, JSON.stringify(qa));
    const noMessage = await sandbox('import', 'ddr-bench', '--repo', broken, '--scenario', '10k', '--db', db, '--out', out);
    expect([noMessage.code, noMessage.stderr]).toEqual([EXIT_CODES['invalid-input'], `sandbox: ${promptsFile}: get_prompts("10k") has no "message_system"\n`]);
    expect(readdirSync(dir).filter((name) => name.startsWith('never'))).toEqual([]);
  });
});

/** The user message of a judge request, and its system prompt. */
function promptsOf(request: RecordedRequest): { system: string; user: string } {
  const messages = (request.body as { messages: Array<{ role: string; content: string }> }).messages;
  return { system: messages.find((message) => message.role === 'system')?.content ?? '', user: messages.find((message) => message.role === 'user')?.content ?? '' };
}

describe('grading imported DDR-Bench tasks through a loopback judge', () => {
  let judge: LoopbackServer;
  const SUMMARY = 'FINISH: Revenue rose 12 % to 44.8 million; cash fell to 8 million.';
  /**
   * The judge's replies, by question. DDR-Bench's insight writer (fixture prompt_manager.py): the one query's result
   * (44.8) as an insight. Its message-wise judge ("Fixture judge (finance, per message)"): revenue and cash →
   * CORRECT_INFO on message 0, the others INSUFFICIENT_INFO; GLOBEM's ("Fixture answerer (wearables, per message)"):
   * sleep → "It improved. Used messages: 0" then YES, mood → "NO IDEA". Its chat-wise protocol ("Fixture judge"): revenue → JSON
   * CORRECT_INFO in ```json fences; debt → JSON INCORRECT_INFO; profitable → not JSON, saying INCORRECT_INFO; cash →
   * JSON INSUFFICIENT_INFO; dividends → empty every time (API_FAILED). Ours (its own prompts): an extraction call per
   * agent message, then {"verdict": …}: revenue CORRECT, debt INCORRECT, profitable unusable (3 times), cash and
   * dividends INSUFFICIENT. GLOBEM: sleep → "It improved." then YES; mood → "NO IDEA".
   */
  function reply(request: RecordedRequest) {
    const { system, user } = promptsOf(request);
    const question = /Question: ([^\n]*)/.exec(user)?.[1] ?? '';
    if (system === 'Fixture insight system.') return chatCompletion({ content: user.includes('44.8') ? ' Revenue reached 44.8 million in 2023. ' : 'NO INSIGHT' });
    if (system.startsWith('Fixture judge (finance, per message)')) {
      return chatCompletion({ content: /revenue|cash/.test(question) ? '{"context_quality": "CORRECT_INFO", "supporting_message_indices": [0]}' : '{"context_quality": "INSUFFICIENT_INFO"}' });
    }
    if (system.startsWith('Fixture answerer (wearables, per message)')) return chatCompletion({ content: question.includes('sleep') ? 'It improved. Used messages: 0' : 'NO IDEA' });
    if (system.startsWith('Fixture judge')) {
      if (question.includes('revenue')) return chatCompletion({ content: '```json\n{"context_quality": "CORRECT_INFO", "reasoning": "stated"}\n```' });
      if (question.includes('debt')) return chatCompletion({ content: '{"context_quality": "INCORRECT_INFO", "reasoning": "other ratio"}' });
      if (question.includes('profitable')) return chatCompletion({ content: 'I would say INCORRECT_INFO here.' });
      if (question.includes('cash')) return chatCompletion({ content: '{"context_quality": "INSUFFICIENT_INFO"}' });
      return chatCompletion({ content: '' });
    }
    if (system.startsWith('Fixture answerer')) return chatCompletion({ content: question.includes('sleep') ? 'It improved.' : 'NO IDEA from this context.' });
    if (system.startsWith('Fixture checker')) return chatCompletion({ content: ' yes ' });
    if (system.startsWith('You read one message')) return chatCompletion({ content: user });
    if (question.includes('revenue')) return chatCompletion({ content: '{"verdict": "CORRECT_INFO", "supporting": [0], "contradicting": [], "reason": "12 %"}' });
    if (question.includes('debt')) return chatCompletion({ content: '{"verdict": "INCORRECT_INFO", "supporting": [], "contradicting": [0], "reason": "no"}' });
    if (question.includes('profitable')) return chatCompletion({ content: 'cannot tell' });
    return chatCompletion({ content: '{"verdict": "INSUFFICIENT_INFO", "supporting": [], "contradicting": []}' });
  }

  beforeAll(async () => {
    judge = await startOpenAIServer();
    judge.enqueue(...Array.from({ length: 200 }, () => reply));
  });
  afterAll(async () => judge.close());

  async function run(suite: string, name: string, judged: boolean | string) {
    const script = path.join(dir, `${name}.script.json`);
    // One query first: the SQLite file is served by the SQL server's SQLite backend, as DDR-Bench's 10-K database is SQLite.
    writeFileSync(script, JSON.stringify([{ toolCalls: [{ name: 'execute_query', arguments: { sql: "SELECT value FROM facts WHERE cik = '1001' AND fiscal_year = 2023" } }], content: 'Checking revenue.' }, { answer: SUMMARY }]));
    const out = path.join(dir, 'runs', name);
    const result = await sandbox('run', '--suite', suite, '--model', `scripted:${script}`, '--concurrency', '1', '--out', out, ...(judged ? ['--judge', typeof judged === 'string' ? judged : `openai-compatible:${judge.url}/v1#fixture-judge`] : []));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const trajectory = readFileSync(path.join(out, readdirSync(out).find((file) => file.endsWith('.jsonl'))!), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; content?: string; isError?: boolean });
    expect(trajectory.filter((event) => event.type === 'tool-result').map((event) => [event.isError, event.content?.includes('44.8')])).toEqual([[false, true]]);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as { episodes: Array<{ taskId: string; score: { passed: boolean | null; metrics: Record<string, number | null>; details: Record<string, unknown> } }> };
    return new Map(summary.episodes.map((episode) => [episode.taskId, episode.score]));
  }

  it("both protocols on the same checklists, each scored as its rule says, and `sandbox results` keeps them apart", { timeout: 240_000 }, async () => {
    const ddrBenchSuite = path.join(dir, 'suite-10k-judged');
    const oursSuite = path.join(dir, 'suite-10k-ours');
    const globemSuite = path.join(dir, 'suite-globem');
    expect((await sandbox('import', 'ddr-bench', '--repo', FIXTURE, '--scenario', '10k', '--db', db, '--out', ddrBenchSuite)).code).toBe(0);
    expect((await sandbox('import', 'ddr-bench', '--repo', FIXTURE, '--scenario', '10k', '--db', db, '--out', oursSuite, '--judge-protocol', 'ours')).code).toBe(0);
    expect((await sandbox('import', 'ddr-bench', '--repo', FIXTURE, '--scenario', 'globem', '--db', db, '--out', globemSuite)).code).toBe(0);

    // Without a judge: text items are not judged — no accuracy, no pass or fail, never 0.
    const unjudged = await run(ddrBenchSuite, 'unjudged', false);
    expect(unjudged.get('ddr-bench-10k-1001')!.metrics).toMatchObject({ accuracy: null, items: 0, text_items: 3, judge_accuracy: null });
    expect(unjudged.get('ddr-bench-10k-1001')!.passed).toBeNull();
    // The real CLI under Node's own loader (not vitest's transform) grades the SQLite-served run: its one query parsed
    // by the SQLite grammar, reading 1 of the database's 3 tables. (node-sql-parser's named export exists only under vitest.)
    const graded = sandboxProcess('grade', path.join(dir, 'runs', 'unjudged'));
    expect(graded.stderr).toBe('');
    expect(graded.stdout).toContain('ddr-bench-10k-1001#0 (completed) score: not judged · accuracy not judged · items 0 · text_items 3');
    expect(graded.stdout).toContain('table_coverage 0.333 · column_coverage');
    expect(graded.stdout).toContain('queries 1 · unparsed_queries 0');

    // DDR-Bench's protocol (evaluate/unified_evaluator.py _parse_context_quality_result; base_evaluator.py
    // calculate_summary_stats: correct over every pair): 1001 — CORRECT, INCORRECT, and the non-JSON reply read by
    // substring, where "CORRECT_INFO" inside "INCORRECT_INFO" counts as correct → 2/3. 1002 — INSUFFICIENT, API_FAILED → 0/2.
    const ddrBench = await run(ddrBenchSuite, 'ddr-bench', true);
    expect(ddrBench.get('ddr-bench-10k-1001')!.metrics.judge_accuracy).toBeCloseTo(2 / 3, 10);
    expect(ddrBench.get('ddr-bench-10k-1002')!.metrics.judge_accuracy).toBe(0);
    expect(ddrBench.get('ddr-bench-10k-1002')!.metrics.judge_unjudged).toBe(1);
    expect((ddrBench.get('ddr-bench-10k-1001')!.details.judgeVerdicts as Array<{ verdict: string }>).map((verdict) => verdict.verdict)).toEqual(['CORRECT_INFO', 'INCORRECT_INFO', 'CORRECT_INFO']);
    // The dividends item's judge answered "" five times (DDR-Bench's call_llm_api retries, config.yaml max_retries: 5).
    const dividendCalls = judge.requests.filter((request) => promptsOf(request).user.includes('dividends') && promptsOf(request).system.startsWith('Fixture judge (finance).'));
    expect(dividendCalls).toHaveLength(5);
    // Its prompt is the checkout's template filled as Python's str.format fills it: the final summary whole, braces unescaped.
    expect(promptsOf(dividendCalls[0]!).user).toBe(`Context:\n${SUMMARY}\n\nQuestion: Does the company pay dividends?\nReference: No dividends were paid.\nBraces stay literal: {json}`);

    // DDR-Bench's message-wise score beside (evaluate_qa_with_message_list over the one insight the one query gave):
    // 1001 — revenue CORRECT, debt and profitable INSUFFICIENT → 1/3; 1002 — cash CORRECT, dividends INSUFFICIENT → 1/2.
    expect(ddrBench.get('ddr-bench-10k-1001')!.metrics).toMatchObject({ judge_message_accuracy: 1 / 3, judge_insights: 1, judge_insights_failed: 0 });
    expect(ddrBench.get('ddr-bench-10k-1002')!.metrics.judge_message_accuracy).toBe(0.5);
    // Its insight prompt: the agent's text, and the tool result (the SQL server's JSON body) as Python prints the dict
    // json.loads makes of it — single-quoted keys, no JSON double quotes left — then the fixture's literal braces.
    // Its top-k table (calculate_cumulative_message_stats) in the run's summary: revenue and cash correct on insight 0,
    // so counted from top-5 on, 2 of 5 items = 40 %; no incorrect verdict.
    const tables = (JSON.parse(readFileSync(path.join(dir, 'runs', 'ddr-bench', 'summary.json'), 'utf8')) as { tables: Array<{ title: string; rows: unknown[][] }> }).tables;
    const topK = tables.find((table) => table.title.startsWith('DDR-Bench message-wise top-k'))!;
    expect(topK.rows.map((row) => [row[0], row[1], row[2], row.at(-1)])).toEqual([['ddr-bench-10k (ddr-bench judge)', 'correct', 40, 40], ['ddr-bench-10k (ddr-bench judge)', 'incorrect', 0, 0]]);
    const insightCall = judge.requests.find((request) => promptsOf(request).system === 'Fixture insight system.')!;
    const [before, result] = promptsOf(insightCall).user.split('What came back: Tool execution result: ');
    expect(before).toBe('Fixture insight writer. Goal: Study filer 1001 closely\nWhy the tool ran: Checking revenue.\n');
    expect(result).toMatch(/^\{'[a-z_]+': [^"]*\[\[44\.8\]\][^"]*\}\nBraces stay literal: \{x\}\. Reply NO INSIGHT when nothing was learned\.$/);
    // On the wire, per call (DDR-Bench's values; the openai-compatible judge is its vllm route, temperature 0.6):
    // context and message-wise calls max_tokens 2048 (unified_evaluator.py), insight calls 512 and no temperature (data_agent.py).
    const bodies = (system: string) => judge.requests.filter((request) => promptsOf(request).system.startsWith(system)).map((request) => request.body as Record<string, unknown>);
    for (const system of ['Fixture judge (finance).', 'Fixture judge (finance, per message)']) {
      expect(new Set(bodies(system).map((body) => `${String(body.max_tokens)}/${String(body.temperature)}`))).toEqual(new Set(['2048/0.6']));
    }
    expect(new Set(bodies('Fixture insight system.').map((body) => `${String(body.max_tokens)}/${'temperature' in body}`))).toEqual(new Set(['512/false']));

    // Ours (checklist.ts judgeChecklist): over the items with a verdict — 1001: CORRECT, INCORRECT, unusable (UNJUDGED) → 1/2.
    const ours = await run(oursSuite, 'ours', true);
    expect(ours.get('ddr-bench-10k-1001')!.metrics).toMatchObject({ judge_accuracy: 0.5, judge_unjudged: 1 });
    expect(ours.get('ddr-bench-10k-1002')!.metrics).toMatchObject({ judge_accuracy: 0, judge_unjudged: 0 });

    // GLOBEM (_parse_qa_accuracy_result): sleep answered, checked " yes " → YES → CORRECT; mood "NO IDEA" → NO_IDEA. 1/2.
    // This judge is a priced one (openai:gpt-4o-mini, src/models/prices.ts), served by the loopback server, so its USD is known.
    const saved = { url: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
    Object.assign(process.env, { OPENAI_BASE_URL: `${judge.url}/v1`, OPENAI_API_KEY: 'loopback' });
    let globem: Awaited<ReturnType<typeof run>>;
    try {
      globem = await run(globemSuite, 'globem', 'openai:gpt-4o-mini');
    } finally {
      for (const [name, value] of [['OPENAI_BASE_URL', saved.url], ['OPENAI_API_KEY', saved.key]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(globem.get('ddr-bench-globem-ins-w_7')!.metrics.judge_accuracy).toBe(0.5);
    expect(globem.get('ddr-bench-globem-ins-w_7')!.passed).toBe(false);
    // Message-wise the same rule: sleep "It improved. Used messages: 0", checked YES → CORRECT; mood NO IDEA → 1/2.
    expect(globem.get('ddr-bench-globem-ins-w_7')!.metrics.judge_message_accuracy).toBe(0.5);
    // openai:gpt-4o-mini is DDR-Bench's openai route: temperature 0.5; the answers 2048 tokens, the accuracy checks
    // call_llm_api's default 4096 (LangChain names the limit max_tokens for this non-reasoning model).
    const globemBodies = (system: string) => judge.requests.filter((request) => promptsOf(request).system.startsWith(system)).map((request) => request.body as Record<string, unknown>);
    expect(new Set(globemBodies('Fixture answerer').map((body) => `${String(body.max_tokens)}/${String(body.temperature)}`))).toEqual(new Set(['2048/0.5']));
    expect(globemBodies('Fixture checker').map((body) => `${String(body.max_tokens)}/${String(body.temperature)}`)).toEqual(['4096/0.5', '4096/0.5']);

    const results = await sandbox('results', path.join(dir, 'runs'), '--store', path.join(dir, 'results.duckdb'), '--json');
    expect(results.code).toBe(0);
    const reports = (JSON.parse(results.stdout) as { reports: Record<string, Array<Record<string, unknown>>> }).reports;
    const rows = reports.judges!.map((row) => [row.run, row.group, row.protocol, row.episodes, row.items, row.correct, row.unjudged, row.mean_accuracy, row.pooled_accuracy]);
    // Beside them DDR-Bench's message-wise scores, by hand: 10k (1/3 + 1/2) / 2 = 0.4167 mean, 2/5 pooled; GLOBEM 1/2; ours none.
    const messageRows = reports.judges!.map((row) => [row.run, row.message_episodes, row.message_items, row.message_correct, row.message_insufficient, row.message_mean_accuracy, row.message_pooled_accuracy]);
    expect(messageRows).toEqual([
      ['ddr-bench', 2, 5, 2, 3, 0.4167, 0.4],
      ['globem', 1, 2, 1, 1, 0.5, 0.5],
      ['ours', null, null, null, null, null, null],
    ]);
    // mean over entities (DDR-Bench's average_correct_percentage) and pooled (its overall_correct_percentage), by hand:
    // ddr-bench 10k: (2/3 + 0) / 2 = 0.3333, 2/5 = 0.4; ours: (0.5 + 0) / 2 = 0.25, 1/5 = 0.2; globem 1/2.
    expect(rows).toEqual([
      ['ddr-bench', 'ddr-bench-10k', 'ddr-bench', 2, 5, 2, 1, 0.3333, 0.4],
      ['globem', 'ddr-bench-globem', 'ddr-bench', 1, 2, 1, 0, 0.5, 0.5],
      ['ours', 'ddr-bench-10k', 'ours', 2, 5, 1, 1, 0.25, 0.2],
    ]);
    // The judge's tokens in the ledger, 100 in and 20 out per call (the loopback server's usage), calls counted by hand:
    // DDR-Bench's 10-K: chat-wise 1001 three, 1002 one + five → 9, and per entity one insight (one tool call) and one
    // message-wise call per item (3 + 2) → 7: 16; ours: 1001 two extractions (two agent messages) + 1 + 1 + 3
    // attempts, 1002 two extractions + 1 + 1 → 11; GLOBEM: chat-wise answer + check, answer alone → 3, and one
    // insight + message-wise answer + check, answer alone → 4: 7.
    // The loopback model of the 10-K runs has no price (unknown, never 0); gpt-4o-mini's is $0.15 in and $0.60 out per
    // million tokens: 700 × 0.15 / 1e6 + 140 × 0.6 / 1e6 = $0.000189 — shown though the scripted agent's own price is unknown.
    const ledger = new Map(reports.cost!.filter((row) => row.task === 'all tasks').map((row) => [row.run, [row.judged, row.judge_input_tokens, row.judge_output_tokens, row.judge_price, row.judge_usd, row.price]]));
    expect(ledger.get('ddr-bench')).toEqual([2, 1600, 320, 'unknown', null, 'unknown']);
    expect(ledger.get('ours')).toEqual([2, 1100, 220, 'unknown', null, 'unknown']);
    expect(ledger.get('globem')).toEqual([1, 700, 140, 'known', 0.000189, 'unknown']);
    expect(ledger.get('unjudged')).toEqual([0, null, null, 'not judged', null, 'unknown']);
    expect(reports.judges!.find((row) => row.run === 'globem')!.judge_usd).toBe(0.000189);
  });
});
