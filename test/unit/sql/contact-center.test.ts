import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContactCenter, CONTACT_CENTER_TABLES, PLANTED_PATTERNS } from '../../../databases/contact-center/index.ts';

const directory = mkdtempSync(path.join(os.tmpdir(), 'contact-center-'));
let connection: DuckDBConnection;
let instance: DuckDBInstance;

const rows = async (sql: string) => (await connection.runAndReadAll(sql)).getRowsJson();
const scalar = async (sql: string) => (await rows(sql))[0]?.[0];

beforeAll(async () => {
  await buildContactCenter({ path: path.join(directory, 'a.duckdb'), calls: 2_000, seed: 3 });
  await buildContactCenter({ path: path.join(directory, 'b.duckdb'), calls: 2_000, seed: 3 });
  await buildContactCenter({ path: path.join(directory, 'c.duckdb'), calls: 2_000, seed: 4 });
  // The same calls without speech noise: the labels must not move, and every cue word is spelled right.
  await buildContactCenter({ path: path.join(directory, 'd.duckdb'), calls: 2_000, seed: 3, asrErrorRate: 0, disfluencyRate: 0 });
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
  for (const name of ['a', 'b', 'c', 'd']) await connection.run(`ATTACH '${path.join(directory, `${name}.duckdb`)}' AS ${name} (READ_ONLY)`);
}, 120_000);
afterAll(() => {
  connection?.closeSync();
  instance?.closeSync();
});

describe('contact-center generator', () => {
  it('gives the same rows for the same seed and different rows for another seed', async () => {
    for (const table of Object.keys(CONTACT_CENTER_TABLES)) {
      expect(await scalar(`SELECT count(*) FROM (SELECT * FROM a.${table} EXCEPT ALL SELECT * FROM b.${table})`)).toBe('0');
    }
    expect(Number(await scalar(`SELECT count(*) FROM (SELECT * FROM a.calls EXCEPT ALL SELECT * FROM c.calls)`))).toBeGreaterThan(1_900);
  });

  it('keeps the schema contract', async () => {
    const columns = await rows(`SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = 'a' ORDER BY table_name, column_index`);
    const calls = columns.filter((row) => row[0] === 'calls').map((row) => `${row[1]} ${row[2]}`);
    expect(calls).toEqual([
      'call_id VARCHAR', 'started_at TIMESTAMP', 'time_zone VARCHAR', 'queue VARCHAR', 'channel VARCHAR', 'call_driver VARCHAR', 'agent_id VARCHAR',
      'customer_id VARCHAR', 'duration_s INTEGER', 'hold_s INTEGER', 'transfers INTEGER', 'resolved BOOLEAN', 'escalated BOOLEAN',
      'sentiment_start DOUBLE', 'sentiment_end DOUBLE', 'csat INTEGER',
    ]);
    for (const [table, doc] of Object.entries(CONTACT_CENTER_TABLES)) {
      expect(columns.filter((row) => row[0] === table).map((row) => row[1])).toEqual(Object.keys(doc.columns));
    }
    expect(await scalar(`SELECT count(*) FROM a.agents WHERE agent_id = 'A-0042'`)).toBe('1');
    expect(await scalar(`SELECT min(call_id) FROM a.calls`)).toBe('C-0000001');
  });

  it('writes transcripts consistent with each call', async () => {
    // Turns are numbered 0..n-1 without gaps, alternate in time, and fit in the call.
    expect(await scalar(`SELECT count(*) FROM (SELECT call_id FROM a.transcript_turns GROUP BY call_id HAVING max(turn_index) + 1 <> count(*) OR min(turn_index) <> 0)`)).toBe('0');
    expect(await scalar(`SELECT count(*) FROM a.calls c WHERE NOT EXISTS (SELECT 1 FROM a.transcript_turns t WHERE t.call_id = c.call_id)`)).toBe('0');
    expect(await scalar(`SELECT count(*) FROM a.transcript_turns t JOIN a.calls c USING (call_id) WHERE t.end_s > c.duration_s OR t.start_s > t.end_s`)).toBe('0');
    // Every escalated call has an escalation request, at a customer turn that asks for a supervisor, and no other call has one.
    expect(await scalar(`SELECT count(*) FROM a.calls c WHERE c.escalated <> EXISTS (SELECT 1 FROM a.key_moments k WHERE k.call_id = c.call_id AND k.moment = 'escalation_request')`)).toBe('0');
    // Noise changes words, never labels: the noiseless build has the same calls and key moments.
    for (const table of ['calls', 'key_moments']) {
      expect(await scalar(`SELECT count(*) FROM (SELECT * FROM a.${table} EXCEPT ALL SELECT * FROM d.${table})`)).toBe('0');
    }
    // Each moment's turn says what the moment is, in one of the many ways people say it (checked without ASR noise):
    // an escalation request asks for someone senior, a refund offer gives money back, a transfer hands the call on.
    const moments = await rows(`SELECT k.moment, t.speaker, t.text FROM d.key_moments k JOIN d.transcript_turns t USING (call_id, turn_index)`);
    const textOf: Record<string, RegExp> = {
      escalation_request: /supervisor|manager|team lead|escalate|above you|senior|in charge/i,
      refund_offer: /refund|credit|back|waive|discount|reimburse|dollars off/i,
      cancellation_threat: /cancel|leav|switch|elsewhere|done with|walk away|shut down|terminate|close|go to|end my/i,
      transfer: /transfer|connect|pass you|put you through|route|get you over|moving your call/i,
      hold_placed: /hold/i,
      resolution_confirmed: /fixed|sorted|resolved|taken care|all set|done|working|good to go/i,
    };
    for (const [moment, speaker, text] of moments as Array<[string, string, string]>) {
      expect(text, `${moment} turn`).toMatch(textOf[moment]!);
      expect(speaker).toBe(moment === 'escalation_request' || moment === 'cancellation_threat' ? 'customer' : 'agent');
    }
    // Sentiment is reflected in wording: the customer's last turn of a very negative call never thanks the agent,
    // and that of a very positive call never complains.
    const closing = (band: string) => `SELECT count(*) FROM d.calls c JOIN d.transcript_turns t USING (call_id)
      WHERE ${band} AND t.speaker = 'customer' AND t.turn_index = (SELECT max(turn_index) FROM d.transcript_turns x WHERE x.call_id = c.call_id AND x.speaker = 'customer')`;
    expect(await scalar(`${closing('c.sentiment_end <= -0.3')} AND regexp_matches(lower(t.text), 'thank|appreciate|great|perfect')`)).toBe('0');
    expect(await scalar(`${closing('c.sentiment_end >= 0.2')} AND regexp_matches(lower(t.text), 'unacceptable|disappointed|terrible|worst|ridiculous')`)).toBe('0');
  });

  it('documents every column in the database itself', async () => {
    expect(await scalar(`SELECT count(*) FROM duckdb_columns() WHERE database_name = 'a' AND comment IS NULL`)).toBe('0');
  });

  it('has at least 15 planted patterns whose SQL runs, and the headline ones hold', async () => {
    expect(PLANTED_PATTERNS.length).toBeGreaterThanOrEqual(15);
    await connection.run('USE a');
    for (const pattern of PLANTED_PATTERNS) expect((await rows(pattern.sql)).length, pattern.id).toBeGreaterThan(0);
    const byZone = Object.fromEntries((await rows(PLANTED_PATTERNS.find((p) => p.id === 'escalation-by-time-zone')!.sql)).map((row) => [row[0], row[1] as number]));
    expect(byZone['America/Los_Angeles']!).toBeGreaterThan(1.6 * byZone['America/New_York']!);
    const csat = await rows(PLANTED_PATTERNS.find((p) => p.id === 'low-csat-driver')!.sql);
    expect(csat[0]![0]).toBe('billing_dispute');
  });
});
