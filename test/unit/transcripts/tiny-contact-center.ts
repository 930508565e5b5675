// A tiny contact-center database with the tables the transcript index reads, written in the test so the unit
// tests do not depend on the full generator. Every call has a distinct topic, so a search has one right answer.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

export interface TinyCall {
  call_id: string;
  started_at: string;
  time_zone: string;
  queue: string;
  agent_id: string;
  resolved: boolean;
  escalated: boolean;
  turns: string[];
}

export const TINY_CALLS: TinyCall[] = [
  {
    call_id: 'C-0000001', started_at: '2026-01-05 09:15:00', time_zone: 'America/New_York', queue: 'billing', agent_id: 'A-0001', resolved: true, escalated: false,
    turns: ['Thanks for calling, how can I help?', 'I was double charged on my last invoice.', 'I see the duplicate payment, I will refund it.', 'Great, thank you.', 'Anything else today?', 'No, that is all.'],
  },
  {
    call_id: 'C-0000002', started_at: '2026-02-10 14:30:00', time_zone: 'America/Los_Angeles', queue: 'technical_support', agent_id: 'A-0002', resolved: false, escalated: true,
    turns: ['Support, what is going on?', 'My router keeps dropping the wifi connection every hour.', 'Let us restart the modem and check the firmware.', 'It still drops, I want a supervisor.', 'I will escalate this to my supervisor.'],
  },
  {
    call_id: 'C-0000003', started_at: '2026-03-11 11:00:00', time_zone: 'Europe/London', queue: 'retention', agent_id: 'A-0042', resolved: true, escalated: false,
    turns: ['Hello, how can I help?', 'I want to cancel my subscription, it is too expensive.', 'I can offer you a refund of one month and a discount.', "OK, with the discount I'll stay.", 'Wonderful.', 'Bye.', 'Goodbye.', 'Thanks.', 'You are welcome.'],
  },
  {
    call_id: 'C-0000004', started_at: '2026-03-12 20:45:00', time_zone: 'America/Los_Angeles', queue: 'technical_support', agent_id: 'A-0042', resolved: false, escalated: false,
    turns: ['Hi there.', 'There is a service outage in my area, no internet since yesterday.', 'Yes, we have an outage in your region, engineers are on it.', 'When will it be back?'],
  },
  {
    call_id: 'C-0000005', started_at: '2026-04-02 08:05:00', time_zone: 'America/New_York', queue: 'sales', agent_id: 'A-0001', resolved: true, escalated: false,
    turns: ["Sales, how can I help?", "I'd like to upgrade my plan to the premium tier with more data.", 'Sure, the premium plan adds unlimited data.', 'Sign me up.'],
  },
];

export const TINY_AGENTS = [
  { agent_id: 'A-0001', name: 'Ana Silva', team: 'Aurora' },
  { agent_id: 'A-0002', name: 'Ben Okafor', team: 'Ember' },
  { agent_id: 'A-0042', name: "Dana O'Neil", team: 'Ember' },
];

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Writes the tiny database into a new temp directory and returns its path. */
export async function createTinyContactCenter(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'transcripts-'));
  const dbPath = path.join(dir, 'contact-center.duckdb');
  const instance = await DuckDBInstance.create(dbPath);
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE agents(agent_id VARCHAR, name VARCHAR, team VARCHAR, site VARCHAR, tenure_months INTEGER, shift VARCHAR)`);
  await connection.run(`CREATE TABLE calls(call_id VARCHAR, started_at TIMESTAMP, time_zone VARCHAR, queue VARCHAR, channel VARCHAR, call_driver VARCHAR,
    agent_id VARCHAR, customer_id VARCHAR, duration_s INTEGER, hold_s INTEGER, transfers INTEGER, resolved BOOLEAN, escalated BOOLEAN,
    sentiment_start DOUBLE, sentiment_end DOUBLE, csat INTEGER)`);
  await connection.run(`CREATE TABLE transcript_turns(call_id VARCHAR, turn_index INTEGER, speaker VARCHAR, start_s DOUBLE, end_s DOUBLE, text VARCHAR)`);
  for (const agent of TINY_AGENTS) {
    await connection.run(`INSERT INTO agents VALUES (${quote(agent.agent_id)}, ${quote(agent.name)}, ${quote(agent.team)}, 'Lisbon', 12, 'day')`);
  }
  for (const call of TINY_CALLS) {
    await connection.run(`INSERT INTO calls VALUES (${quote(call.call_id)}, TIMESTAMP ${quote(call.started_at)}, ${quote(call.time_zone)}, ${quote(call.queue)},
      'voice', 'other', ${quote(call.agent_id)}, 'U-1', 300, 0, 0, ${call.resolved}, ${call.escalated}, 0, 0, NULL)`);
    for (const [i, text] of call.turns.entries()) {
      await connection.run(`INSERT INTO transcript_turns VALUES (${quote(call.call_id)}, ${i}, ${i % 2 === 0 ? "'agent'" : "'customer'"}, ${i * 10}, ${i * 10 + 8}, ${quote(text)})`);
    }
  }
  connection.closeSync();
  instance.closeSync();
  return dbPath;
}
