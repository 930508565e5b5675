// The labelled query set of the contact-center transcripts: queries an analyst would type to find the calls
// behind a planted pattern, each with the calls that are truly relevant. Relevance comes from the structured
// facts the generator planted (key_moments, call_driver, escalated, resolved, sentiment …) read with SQL, never
// from the text index, so the set measures retrieval rather than agreeing with it.
import { DuckDBInstance } from '@duckdb/node-api';
import { SeededRandom } from '../../databases/seeded-random.ts';
import { EFFECTS } from '../../databases/contact-center/effects.ts';
import type { SearchFilters } from './search-filters.ts';

export interface LabelledQuery {
  id: string;
  /** The planted pattern (databases/contact-center/patterns.ts id) or `call-driver:<driver>` the query probes. */
  pattern: string;
  query: string;
  filters?: SearchFilters;
  /** Every call that answers the query, sorted. */
  relevantCallIds: string[];
}

interface QueryIntent {
  id: string;
  pattern: string;
  /** Ways an analyst might phrase it; the seed picks one. */
  phrasings: string[];
  filters?: SearchFilters;
  /** SQL over calls `c` (and key_moments) selecting the relevant calls, with the filters already applied. */
  where: string;
}

const moment = (name: string) => `EXISTS (SELECT 1 FROM key_moments k WHERE k.call_id = c.call_id AND k.moment = '${name}')`;
const outageEnd = (() => {
  const end = new Date(`${EFFECTS.outageStart}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + EFFECTS.outageDays - 1);
  return end.toISOString().slice(0, 10);
})();

const INTENTS: QueryIntent[] = [
  {
    id: 'supervisor-requests-los-angeles', pattern: 'escalation-by-time-zone',
    phrasings: ['customer asks to speak to a supervisor', 'caller wants a supervisor', 'escalating this to my supervisor'],
    filters: { time_zone: 'America/Los_Angeles' },
    where: `c.escalated AND c.time_zone = 'America/Los_Angeles'`,
  },
  {
    id: 'outlier-agent-escalations', pattern: 'outlier-agent-escalation',
    phrasings: ['I want to speak to a supervisor', 'agent escalates the call to a supervisor'],
    filters: { agent_id: EFFECTS.outlierAgent },
    where: `c.escalated AND c.agent_id = '${EFFECTS.outlierAgent}'`,
  },
  {
    id: 'outage-window', pattern: 'outage-spike',
    phrasings: ['service has been down since this morning', 'nothing works even after restarting the router', 'service down outage'],
    filters: { date_from: EFFECTS.outageStart, date_to: outageEnd },
    where: `c.call_driver = 'outage' AND c.started_at::DATE BETWEEN DATE '${EFFECTS.outageStart}' AND DATE '${outageEnd}'`,
  },
  {
    id: 'saved-cancellations-refund', pattern: 'refund-saves-cancellations',
    phrasings: ['agent offers a refund as a credit on the next bill', 'refund credit on your next bill'],
    filters: { queue: 'retention', resolved: true },
    where: `c.call_driver = 'cancellation' AND c.resolved AND ${moment('refund_offer')}`,
  },
  {
    id: 'cancellation-threats', pattern: 'refund-saves-cancellations',
    phrasings: ['customer threatens to cancel the service if it is not sorted out today', 'going to cancel my service if not sorted out'],
    where: moment('cancellation_threat'),
  },
  {
    id: 'unresolved-transfers', pattern: 'transfers-hurt-resolution',
    phrasings: ['transfer you to a colleague who specialises in this', 'call transferred to a specialist colleague'],
    filters: { resolved: false },
    where: `c.transfers > 0 AND NOT c.resolved`,
  },
  {
    id: 'disappointed-unresolved', pattern: 'sentiment-unresolved',
    phrasings: ['customer says the service is unacceptable and is very disappointed', 'unacceptable very disappointed'],
    filters: { resolved: false },
    where: `c.sentiment_end <= -0.3 AND NOT c.resolved`,
  },
  {
    id: 'holds', pattern: 'night-shift-hold',
    phrasings: ['agent places the customer on a brief hold', 'thank you for holding'],
    where: moment('hold_placed'),
  },
  {
    id: 'unrecognised-charges', pattern: 'low-csat-driver',
    phrasings: ['a charge on my bill that I do not recognise', 'bill went up by forty dollars'],
    where: `c.call_driver = '${EFFECTS.lowCsatDriver}'`,
  },
  {
    id: 'password-resets', pattern: 'password-reset-resolution',
    phrasings: ['locked out of my online account', 'password reset email never arrives'],
    where: `c.call_driver = 'password_reset'`,
  },
  {
    id: 'resolved-general', pattern: 'password-reset-resolution',
    phrasings: ['all fixed now you should see the change right away'],
    filters: { queue: 'general', resolved: true },
    where: `c.queue = 'general' AND c.resolved`,
  },
  { id: 'device-setup', pattern: 'call-driver:device_setup', phrasings: ['cannot get my new device set up, fails at activation'], where: `c.call_driver = 'device_setup'` },
  { id: 'shipping-delay', pattern: 'call-driver:shipping_delay', phrasings: ['my order has not arrived, tracking page not changed'], where: `c.call_driver = 'shipping_delay'` },
  { id: 'payment-plan', pattern: 'call-driver:payment_arrangement', phrasings: ['set up a payment plan for my balance'], where: `c.call_driver = 'payment_arrangement'` },
  { id: 'new-line', pattern: 'call-driver:new_service', phrasings: ['add a new line to my account for my daughter'], where: `c.call_driver = 'new_service'` },
  { id: 'plan-change', pattern: 'call-driver:plan_change', phrasings: ['change my plan to something with more data for less money'], where: `c.call_driver = 'plan_change'` },
];

/**
 * Generates the labelled query set for a built contact-center database: one query per intent, its phrasing
 * picked by `seed`, its relevant calls read from the database's planted facts (only calls that have a transcript).
 */
export async function generateLabelledQueries(dbPath: string, seed = 1): Promise<LabelledQuery[]> {
  const random = new SeededRandom(seed);
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const queries: LabelledQuery[] = [];
    for (const intent of INTENTS) {
      const reader = await connection.runAndReadAll(
        `SELECT c.call_id FROM calls c WHERE (${intent.where}) AND EXISTS (SELECT 1 FROM transcript_turns t WHERE t.call_id = c.call_id) ORDER BY c.call_id`,
      );
      queries.push({
        id: intent.id,
        pattern: intent.pattern,
        query: random.pick(intent.phrasings),
        ...(intent.filters ? { filters: intent.filters } : {}),
        relevantCallIds: reader.getRowsJS().map((row) => String(row[0])),
      });
    }
    return queries;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
