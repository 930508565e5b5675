import { EFFECTS as E } from './effects.ts';
import { CALL_DRIVERS, CHANNELS, KEY_MOMENTS, RUBRIC_ITEMS, SEGMENTS, SITES, TEAMS, TIME_ZONES } from './vocabulary.ts';

/** Documentation of one table: what a row is, and each column. */
export interface TableDoc {
  description: string;
  columns: Record<string, string>;
}

const values = (list: readonly string[]) => list.map((value) => `'${value}'`).join(', ');
const names = (pairs: ReadonlyArray<readonly [string, number]>) => values(pairs.map(([value]) => value));

/**
 * The contact-center warehouse's column documentation. The build writes it into the database as
 * `COMMENT ON TABLE/COLUMN`, which is where the SQL server's `get_field_description` reads it, so any
 * DuckDB database with comments is documented the same way.
 */
export const CONTACT_CENTER_TABLES: Record<string, TableDoc> = {
  calls: {
    description: 'One row per customer contact (voice call, chat or callback) handled by an agent, January–June 2026.',
    columns: {
      call_id: "Call identifier, 'C-' and seven digits (e.g. 'C-0000001').",
      started_at: 'When the contact started, as local wall-clock time in the caller\'s time_zone.',
      time_zone: `The caller's IANA time zone: ${names(TIME_ZONES)}.`,
      queue: "The queue the contact was routed to, determined by its call driver: 'billing', 'technical_support', 'sales', 'retention', 'general'.",
      channel: `Contact channel: ${names(CHANNELS)}.`,
      call_driver: `The reason for the contact: ${values(CALL_DRIVERS.map((entry) => entry.driver))}.`,
      agent_id: 'The agent who handled the contact (agents.agent_id).',
      customer_id: 'The customer (customers.customer_id).',
      duration_s: 'Total handle time in seconds, hold time included.',
      hold_s: 'Seconds the customer spent on hold (0 when never placed on hold).',
      transfers: 'Number of times the contact was transferred to another agent or team (0–3).',
      resolved: 'Whether the issue was resolved on this contact (first-contact resolution).',
      escalated: 'Whether the customer asked for and got an escalation to a supervisor.',
      sentiment_start: 'Customer sentiment over the first turns, from -1 (very negative) to 1 (very positive).',
      sentiment_end: 'Customer sentiment over the last turns, from -1 to 1.',
      csat: 'Post-contact survey score 1 (very dissatisfied) to 5 (very satisfied); NULL when the customer did not answer the survey.',
    },
  },
  agents: {
    description: 'One row per contact-center agent.',
    columns: {
      agent_id: "Agent identifier, 'A-' and four digits (e.g. 'A-0042').",
      name: 'Agent full name (synthetic).',
      team: `Team: ${values(TEAMS)}.`,
      site: `Site the agent works from: ${names(SITES)}.`,
      tenure_months: 'Months since the agent was hired.',
      shift: "Shift: 'day' (08:00–13:59 local), 'evening' (14:00–19:59) or 'night' (20:00–07:59); agents take calls in their shift.",
    },
  },
  customers: {
    description: 'One row per customer account.',
    columns: {
      customer_id: "Customer identifier, 'CU-' and seven digits.",
      segment: `Customer segment: ${names(SEGMENTS)}.`,
      tenure_months: 'Months the customer has been with the company.',
    },
  },
  qa_evaluations: {
    description: `Quality-assurance evaluations of a sample (about ${E.qaSampleRate * 100} %) of calls: one row per rubric item scored; rows with the same evaluation_id form one evaluation.`,
    columns: {
      evaluation_id: "Evaluation identifier, 'E-' and seven digits; shared by the rubric items of one evaluation.",
      call_id: 'The evaluated call (calls.call_id).',
      agent_id: 'The agent evaluated (the agent who handled the call).',
      evaluated_at: 'When the evaluator scored the call (one to six days after it).',
      rubric_item: `The rubric item scored: ${values(RUBRIC_ITEMS.map((entry) => entry.item))}.`,
      score: 'Score for the rubric item, 1 (poor) to 5 (excellent).',
    },
  },
  key_moments: {
    description: 'Notable moments detected in call transcripts, one row per moment, pointing at the transcript turn where it happens.',
    columns: {
      call_id: 'The call (calls.call_id).',
      turn_index: 'The transcript turn (transcript_turns.turn_index) where the moment happens.',
      moment: `Kind of moment: ${values(KEY_MOMENTS)}.`,
    },
  },
  transcript_turns: {
    description: 'Call transcripts: one row per speaker turn, in order within each call.',
    columns: {
      call_id: 'The call (calls.call_id).',
      turn_index: 'Position of the turn in the call, from 0.',
      speaker: "Who speaks: 'agent' or 'customer'.",
      start_s: 'Seconds from the start of the call when the turn starts (hold time falls between turns).',
      end_s: 'Seconds from the start of the call when the turn ends.',
      text: 'What was said (or typed, for chat).',
    },
  },
};

/**
 * Writes the documentation into a database as comments, through the given statement runner: the warehouse's tables
 * by default, or `tables` of `schema` (the build's `accounts` schema, `accounts/columns.ts`).
 */
export async function applyColumnComments(run: (sql: string) => Promise<void>, tables: Record<string, TableDoc> = CONTACT_CENTER_TABLES, schema?: string): Promise<void> {
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  for (const [name, doc] of Object.entries(tables)) {
    const table = schema === undefined ? name : `${schema}.${name}`;
    await run(`COMMENT ON TABLE ${table} IS ${literal(doc.description)}`);
    for (const [column, description] of Object.entries(doc.columns)) {
      await run(`COMMENT ON COLUMN ${table}.${column} IS ${literal(description)}`);
    }
  }
}
