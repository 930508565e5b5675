import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { ensureDatabase } from '../../databases/index.ts';
import { sandbox } from '../support/sandbox-cli.ts';

/**
 * `sandbox replay` of a recorded service episode (issue 35): the recorded tool calls re-executed against a fresh copy
 * of the customer's slice. The task is test/fixtures/service/svc-fixture-credit.json with its server reading a copy of
 * the contact-center database it names (300 calls), so the test can change that customer's state between replays.
 */
const FIXTURE = 'test/fixtures/service/svc-fixture-credit.json';

interface ReplayJson {
  exitCode: number;
  toolCalls: number;
  diverged: boolean;
  divergences: Array<{ kind: string; callId?: string; recorded: unknown; replayed: unknown }>;
}

describe('sandbox replay of a service episode', { timeout: 300_000 }, () => {
  let dir: string;
  let database: string;
  let trajectory: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'svc-replay-'));
    const task = JSON.parse(await readFile(path.join(REPO_ROOT, FIXTURE), 'utf8')) as { environment: { servers: Array<{ name: string; options: Record<string, unknown> }> } };
    const built = await ensureDatabase('contact-center', { calls: task.environment.servers[0]!.options.calls as number });
    database = path.join(dir, 'contact-center.duckdb');
    await copyFile(built, database);
    task.environment.servers[0]!.options = { dbPath: database };
    const taskFile = path.join(dir, 'svc-fixture-credit.json');
    await writeFile(taskFile, JSON.stringify(task, null, 2));
    const episode = sandbox('episode', '--task', taskFile, '--model', 'reference', '--user-model', 'rule-based', '--out', path.join(dir, 'runs'));
    expect(episode.status).toBe(EXIT_CODES.ok);
    trajectory = path.join(dir, 'runs', 'svc-fixture-credit.0.jsonl');
  }, 300_000);

  /** Changes the slice's state in the database the task's server copies from. */
  const update = async (sql: string) => {
    const instance = await DuckDBInstance.create(database);
    const connection = await instance.connect();
    await connection.run(sql);
    connection.closeSync();
    instance.closeSync();
  };

  const replay = (): ReplayJson => {
    const result = sandbox('replay', trajectory, '--json');
    const json = JSON.parse(result.stdout) as ReplayJson;
    expect(result.status).toBe(json.exitCode);
    return json;
  };

  it('re-executed against the same slice: the reference\'s two calls (verify_identity, issue_credit), no divergence, exit 0', () => {
    const json = replay();
    expect(json).toMatchObject({ exitCode: EXIT_CODES.ok, toolCalls: 2, diverged: false, divergences: [] });
  });

  it('the customer\'s balance changed in the slice: issue_credit\'s result diverges (balance − 10), verify_identity does not; exit 1', async () => {
    // +7.00 on CU-0000001's balance. The rule (issue_credit, databases/contact-center/accounts/service-tools.ts): the
    // result's balance is the account's balance less the amount credited — recorded 5.00, so replayed 12.00.
    await update("UPDATE accounts.accounts SET balance = balance + 7 WHERE customer_id = 'CU-0000001'");

    const json = replay();
    expect(json.exitCode).toBe(EXIT_CODES.failed);
    expect(json.diverged).toBe(true);
    expect(json.divergences).toHaveLength(1);
    const [divergence] = json.divergences;
    expect(divergence!.kind).toBe('tool-output');
    expect(String(divergence!.recorded)).toContain('"balance":"5.00"');
    expect(String(divergence!.replayed)).toContain('"balance":"12.00"');
    expect(String(divergence!.replayed)).toContain('"amount":"10.00"');
  });

  it('the customer\'s PIN changed too: verify_identity fails on replay, so issue_credit is refused — both diverge; exit 1', async () => {
    // The rules (service-tools.ts): verify_identity matches name, ZIP code and PIN, else a tool error; issue_credit
    // needs a verified caller, else a tool error. The recorded PIN 9589 no longer matches.
    await update("UPDATE accounts.accounts SET pin = '0000' WHERE customer_id = 'CU-0000001'");
    const json = replay();
    expect(json.exitCode).toBe(EXIT_CODES.failed);
    expect(json.divergences.map((divergence) => divergence.kind)).toEqual(['tool-output', 'tool-output']);
    expect(String(json.divergences[0]!.replayed)).toContain('identity not verified: the details given do not match the account');
    expect(String(json.divergences[1]!.replayed)).toContain("the caller's identity is not verified");
  });
});
