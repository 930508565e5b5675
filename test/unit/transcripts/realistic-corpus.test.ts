// The generated transcripts read like real calls (issue 22): many phrasings per phenomenon, the call's own data
// in the words, no sentence template covering more than 2 % of turns, and a configurable speech-recognition noise.
// Measured without noise, where distinct texts can only come from the lexicons, not from typos.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContactCenter } from '../../../databases/contact-center/index.ts';

const directory = mkdtempSync(path.join(os.tmpdir(), 'corpus-'));
let instance: DuckDBInstance;
let connection: DuckDBConnection;
const value = async (sql: string) => Number((await connection.runAndReadAll(sql)).getRowsJS()[0]![0]);

/** A turn's template: digits and capitalised words inside the text (names, products, places) masked. */
const MASKED = `regexp_replace(regexp_replace(text, '[0-9]+', '#', 'g'), ' [A-Z][a-zA-Z]+', ' X', 'g')`;

beforeAll(async () => {
  const build = (name: string, asrErrorRate: number) =>
    buildContactCenter({ path: path.join(directory, `${name}.duckdb`), calls: 2_000, seed: 5, asrErrorRate, disfluencyRate: 0 });
  await build('clean', 0);
  await build('noisy', 0.2);
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  for (const name of ['clean', 'noisy']) await connection.run(`ATTACH '${path.join(directory, `${name}.duckdb`)}' AS ${name} (READ_ONLY)`);
}, 240_000);

afterAll(() => {
  connection?.closeSync();
  instance?.closeSync();
  rmSync(directory, { recursive: true, force: true });
});

describe('realistic transcripts', () => {
  it('says each key moment in at least 20 different ways', async () => {
    for (const moment of ['cancellation_threat', 'hold_placed', 'refund_offer', 'transfer', 'escalation_request', 'resolution_confirmed']) {
      const phrasings = await value(`SELECT count(DISTINCT ${MASKED}) FROM clean.key_moments k JOIN clean.transcript_turns t USING (call_id, turn_index) WHERE k.moment = '${moment}'`);
      expect(phrasings, moment).toBeGreaterThanOrEqual(20);
    }
  });

  it('says each reason for calling in at least 20 different ways', async () => {
    const drivers = (await connection.runAndReadAll(`SELECT c.call_driver, count(DISTINCT ${MASKED}) FROM clean.calls c JOIN clean.transcript_turns t USING (call_id) WHERE t.turn_index = 1 GROUP BY ALL`)).getRowsJS();
    expect(drivers).toHaveLength(10);
    for (const [driver, phrasings] of drivers) expect(Number(phrasings), String(driver)).toBeGreaterThanOrEqual(20);
  });

  it('covers at most 2 % of turns with any one sentence template', async () => {
    const share = await value(`SELECT max(n) / (SELECT count(*) FROM clean.transcript_turns) FROM (SELECT ${MASKED} AS m, count(*) AS n FROM clean.transcript_turns GROUP BY m)`);
    expect(share).toBeLessThanOrEqual(0.02);
  });

  it("uses the call's own data: the agent greets with their own first name", async () => {
    const missing = await value(`SELECT count(*) FROM clean.calls c JOIN clean.agents a USING (agent_id) JOIN clean.transcript_turns t USING (call_id)
      WHERE t.turn_index = 0 AND position(split_part(a.name, ' ', 1) IN t.text) = 0`);
    expect(missing).toBe(0);
  });

  it('misrecognises words at the configured rate and never changes the labels', async () => {
    // 20 % of words misheard or mistyped: most turns of 8+ words differ from the noiseless text.
    const changed = await value(`SELECT avg((a.text <> b.text)::INTEGER) FROM clean.transcript_turns a JOIN noisy.transcript_turns b USING (call_id, turn_index)`);
    expect(changed).toBeGreaterThan(0.6);
    for (const table of ['calls', 'key_moments']) {
      expect(await value(`SELECT count(*) FROM (SELECT * FROM clean.${table} EXCEPT ALL SELECT * FROM noisy.${table})`)).toBe(0);
    }
  });
});
