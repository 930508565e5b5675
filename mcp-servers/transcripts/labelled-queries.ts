// The labelled query set of the contact-center transcripts: what an analyst would type to find calls, in the
// analyst's own words (synonyms, paraphrases, short keywords, long questions, a few with query syntax or
// filters). The queries were written before the generator's phrase lexicons (git history shows this file first),
// never copied from them. Relevance is decided by SQL over the structured labels the generator planted
// (calls.call_driver, key_moments, resolved, escalated, transfers, hold_s, sentiment), never by the text index,
// so the set measures retrieval rather than agreeing with it.
//
// Grades: 2 = what the query asks for; 1 = related (e.g. a refund request when the query is about a disputed
// charge). Precision, recall and MRR count grade 2 as relevant; nDCG uses both grades (gain 2^g − 1).
import { DuckDBInstance } from '@duckdb/node-api';
import { EFFECTS } from '../../databases/contact-center/effects.ts';
import type { SearchFilters } from './search-filters.ts';

export interface LabelledQuery {
  id: string;
  query: string;
  filters?: SearchFilters;
  /** The SQL expression over calls `c` (with key_moments reachable) that grades a call 0, 1 or 2. */
  gradeSql: string;
  /** Calls graded 2, sorted. */
  relevantCallIds: string[];
  /** Calls graded 1, sorted. */
  partialCallIds: string[];
  /** How many calls pass the filters (the pool a random pick draws from). */
  candidates: number;
}

export interface QueryIntent {
  id: string;
  query: string;
  filters?: SearchFilters;
  /** A CASE expression over calls `c` giving the grade (0, 1, 2). */
  grade: string;
}

export const moment = (name: string) => `EXISTS (SELECT 1 FROM key_moments k WHERE k.call_id = c.call_id AND k.moment = '${name}')`;
export const driver = (...drivers: string[]) => `c.call_driver IN (${drivers.map((d) => `'${d}'`).join(', ')})`;
/** Grade 2 where `full` holds, 1 where `partial` holds, else 0. */
export const graded = (full: string, partial = 'false') => `CASE WHEN ${full} THEN 2 WHEN ${partial} THEN 1 ELSE 0 END`;
const outageEnd = (() => {
  const end = new Date(`${EFFECTS.outageStart}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + EFFECTS.outageDays - 1);
  return end.toISOString().slice(0, 10);
})();
// Sentiment bands as the calls table documents them (-1 very negative … 1 very positive).
export const endsAngry = 'c.sentiment_end <= -0.3';
export const startsAngry = 'c.sentiment_start <= -0.35';
export const endsHappy = 'c.sentiment_end >= 0.2';

export const QUERY_INTENTS: QueryIntent[] = [
  // Why people call, in other words than a driver name.
  { id: 'disputed-charge', query: 'disputed charge on invoice', grade: graded(driver('billing_dispute'), driver('refund_request')) },
  { id: 'unknown-fee', query: "customer doesn't recognize a fee on their statement", grade: graded(driver('billing_dispute')) },
  { id: 'overcharged', query: 'overcharged', grade: graded(driver('billing_dispute'), driver('refund_request')) },
  { id: 'bill-higher', query: 'my bill is higher than expected this month', grade: graded(driver('billing_dispute')) },
  { id: 'double-charged', query: 'double charged', grade: graded(driver('billing_dispute'), driver('refund_request')) },
  { id: 'installments', query: "can't afford to pay the full balance, wants installments", grade: graded(driver('payment_arrangement')) },
  { id: 'payment-extension', query: 'payment extension', grade: graded(driver('payment_arrangement')) },
  { id: 'late-payment-help', query: 'help with a late payment', grade: graded(driver('payment_arrangement'), driver('billing_dispute')) },
  { id: 'internet-down', query: 'internet down', grade: graded(driver('outage')) },
  { id: 'no-connection-area', query: 'no connection in my area since this morning', grade: graded(driver('outage')) },
  { id: 'router-restart', query: 'rebooted the modem and it still does not work', grade: graded(driver('outage'), driver('device_setup')) },
  { id: 'phone-wont-activate', query: "phone won't activate", grade: graded(driver('device_setup')) },
  { id: 'new-handset-setup', query: 'help setting up a new handset', grade: graded(driver('device_setup')) },
  { id: 'activation-error', query: 'activation error', grade: graded(driver('device_setup')) },
  { id: 'bigger-data-plan', query: 'upgrade to a bigger data plan', grade: graded(driver('plan_change'), driver('new_service')) },
  { id: 'cheaper-package', query: 'switch to a cheaper package', grade: graded(driver('plan_change'), driver('cancellation')) },
  { id: 'downgrade', query: 'wants to downgrade', grade: graded(driver('plan_change')) },
  { id: 'close-account', query: 'close my account', grade: graded(driver('cancellation'), moment('cancellation_threat')) },
  { id: 'leaving-competitor', query: 'customer leaving for a competitor', grade: graded(driver('cancellation'), moment('cancellation_threat')) },
  { id: 'too-expensive-cancel', query: 'cancel subscription because it is too expensive', grade: graded(driver('cancellation')) },
  { id: 'forgot-password', query: "forgot password, can't log in", grade: graded(driver('password_reset')) },
  { id: 'reset-link', query: 'reset link not received', grade: graded(driver('password_reset')) },
  { id: 'locked-out', query: 'locked out', grade: graded(driver('password_reset')) },
  { id: 'website-login-question', query: 'Find conversations where the customer could not sign in to the website or app', grade: graded(driver('password_reset')) },
  { id: 'package-not-delivered', query: 'package never delivered', grade: graded(driver('shipping_delay')) },
  { id: 'tracking-not-updating', query: 'where is my order, tracking not updating', grade: graded(driver('shipping_delay')) },
  { id: 'lost-order', query: 'lost shipment', grade: graded(driver('shipping_delay')) },
  { id: 'money-back', query: 'money back for a service I never used', grade: graded(driver('refund_request'), driver('billing_dispute')) },
  { id: 'reimbursement', query: 'reimbursement request', grade: graded(driver('refund_request'), moment('refund_offer')) },
  { id: 'extra-line', query: 'add another line for a family member', grade: graded(driver('new_service')) },
  { id: 'sign-up', query: 'sign up for a new service', grade: graded(driver('new_service'), driver('plan_change')) },
  // What happens on the call (key moments).
  { id: 'demands-manager', query: 'caller demands a manager', grade: graded(moment('escalation_request')) },
  { id: 'someone-higher-up', query: 'wants to speak with someone higher up', grade: graded(moment('escalation_request')) },
  { id: 'escalation-long-question', query: 'Which calls had a customer insisting on talking to the supervisor because the agent could not help?', grade: graded(moment('escalation_request')) },
  { id: 'escalated-billing', query: 'escalated to a supervisor', filters: { queue: 'billing' }, grade: graded('c.escalated') },
  { id: 'supervisor-la', query: 'supervisor request', filters: { time_zone: 'America/Los_Angeles' }, grade: graded('c.escalated') },
  { id: 'manager-outlier-agent', query: 'manager', filters: { agent_id: EFFECTS.outlierAgent }, grade: graded('c.escalated') },
  { id: 'escalated-but-fixed', query: 'customer asked to escalate', filters: { resolved: true }, grade: graded('c.escalated') },
  { id: 'switch-providers-threat', query: 'threatens to switch providers', grade: graded(moment('cancellation_threat'), driver('cancellation')) },
  { id: 'leave-if-not-fixed', query: "customer says they will leave if it isn't fixed", grade: graded(moment('cancellation_threat'), driver('cancellation')) },
  { id: 'cancel-threat-february', query: 'threat to cancel', filters: { date_from: '2026-02-01', date_to: '2026-02-28' }, grade: graded(moment('cancellation_threat'), driver('cancellation')) },
  { id: 'put-on-hold', query: 'put on hold', grade: graded(moment('hold_placed')) },
  { id: 'long-wait-hold', query: 'long wait on hold', grade: graded(`c.hold_s > ${EFFECTS.longHoldSeconds}`, moment('hold_placed')) },
  { id: 'hold-fjord', query: 'waiting on hold', filters: { team: 'Fjord' }, grade: graded(moment('hold_placed')) },
  { id: 'agent-offers-credit', query: 'agent offers credit', grade: graded(moment('refund_offer')) },
  { id: 'goodwill-credit', query: 'goodwill credit applied to the next bill', grade: graded(moment('refund_offer')) },
  { id: 'retention-refund-offer', query: 'refund offer to keep the customer', filters: { queue: 'retention' }, grade: graded(moment('refund_offer')) },
  { id: 'stayed-after-offer', query: 'customer decided to stay after the discount', filters: { queue: 'retention' }, grade: graded(`c.resolved AND ${moment('refund_offer')}`, 'c.resolved') },
  { id: 'transferred-department', query: 'call transferred to another department', grade: graded('c.transfers > 0') },
  { id: 'bounced-around', query: 'bounced between departments several times', grade: graded('c.transfers >= 2', 'c.transfers = 1') },
  { id: 'transferred-not-fixed', query: 'transferred and still not fixed', grade: graded('c.transfers > 0 AND NOT c.resolved', 'c.transfers > 0 OR NOT c.resolved') },
  // Outcome, with negation in the words.
  { id: 'fixed-first-call', query: 'issue resolved on the first call', grade: graded(moment('resolution_confirmed')) },
  { id: 'fixed-tech', query: 'problem fixed', filters: { queue: 'technical_support' }, grade: graded('c.resolved') },
  { id: 'resolved-retention', query: 'resolved', filters: { queue: 'retention' }, grade: graded('c.resolved') },
  { id: 'ticket-follow-up', query: 'not resolved, ticket opened for a follow up', grade: graded('NOT c.resolved') },
  { id: 'unresolved', query: 'unresolved', grade: graded('NOT c.resolved') },
  { id: 'still-broken-ember', query: 'problem still not fixed', filters: { team: 'Ember' }, grade: graded('NOT c.resolved') },
  // How the customer feels.
  { id: 'angry-customer', query: 'angry customer', grade: graded(endsAngry, startsAngry) },
  { id: 'frustrated-caller', query: 'frustrated caller', grade: graded(startsAngry, endsAngry) },
  { id: 'very-happy', query: 'very happy customer thanking the agent', grade: graded(endsHappy) },
  { id: 'satisfied-end', query: 'customer satisfied at the end', grade: graded(endsHappy) },
  { id: 'calm-then-upset', query: 'started calm but ended upset', grade: graded(`c.sentiment_start >= -0.15 AND ${endsAngry}`, endsAngry) },
  { id: 'angry-then-calm', query: 'started angry but calmed down', grade: graded(`${startsAngry} AND c.sentiment_end >= 0`, startsAngry) },
  { id: 'disappointed-service', query: 'disappointed with the service', grade: graded(endsAngry) },
  { id: 'poor-service-unresolved', query: 'complains about poor service', filters: { resolved: false }, grade: graded(endsAngry) },
  // Query syntax, as a power user writes it.
  { id: 'phrase-speak-manager', query: '"speak to a manager"', grade: graded(moment('escalation_request')) },
  { id: 'refund-not-cancel', query: 'refund -cancel', grade: graded(driver('refund_request'), driver('billing_dispute')) },
  { id: 'outage-or-no-signal', query: 'outage OR "no signal"', grade: graded(driver('outage')) },
  { id: 'typo-pasword', query: 'pasword resett', grade: graded(driver('password_reset')) },
  { id: 'outage-window', query: 'network outage', filters: { date_from: EFFECTS.outageStart, date_to: outageEnd }, grade: graded(driver('outage')) },
];

/** The SQL predicate over calls `c` (agents `a`) that the search filters select. */
export function filtersToCallSql(filters: SearchFilters | undefined): string {
  if (!filters) return 'true';
  const q = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const any = (column: string, value: string | string[]) => `${column} IN (${(Array.isArray(value) ? value : [value]).map(q).join(', ')})`;
  const clauses: string[] = [];
  if (filters.call_ids) clauses.push(any('c.call_id', filters.call_ids));
  if (filters.date_from) clauses.push(`c.started_at::DATE >= DATE ${q(filters.date_from)}`);
  if (filters.date_to) clauses.push(`c.started_at::DATE <= DATE ${q(filters.date_to)}`);
  if (filters.queue) clauses.push(any('c.queue', filters.queue));
  if (filters.time_zone) clauses.push(any('c.time_zone', filters.time_zone));
  if (filters.agent_id) clauses.push(any('c.agent_id', filters.agent_id));
  if (filters.team) clauses.push(any('a.team', filters.team));
  if (filters.resolved !== undefined) clauses.push(`c.resolved = ${filters.resolved}`);
  if (filters.escalated !== undefined) clauses.push(`c.escalated = ${filters.escalated}`);
  return clauses.length ? clauses.join(' AND ') : 'true';
}

/** The grading SQL of one intent: every call that passes its filters and has a transcript, with its grade. */
export function gradeQuery(intent: QueryIntent): string {
  return `SELECT c.call_id, (${intent.grade})::INTEGER AS grade
          FROM calls c LEFT JOIN agents a ON a.agent_id = c.agent_id
          WHERE (${filtersToCallSql(intent.filters)}) AND EXISTS (SELECT 1 FROM transcript_turns t WHERE t.call_id = c.call_id)`;
}

/** Reads every intent's graded calls from a built contact-center database. */
export async function generateLabelledQueries(dbPath: string, intents: QueryIntent[] = QUERY_INTENTS): Promise<LabelledQuery[]> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const queries: LabelledQuery[] = [];
    for (const intent of intents) {
      const reader = await connection.runAndReadAll(
        `SELECT grade, count(*)::INTEGER, list(call_id ORDER BY call_id) FROM (${gradeQuery(intent)}) GROUP BY grade`,
      );
      const byGrade = new Map<number, { count: number; ids: string[] }>();
      for (const [grade, count, ids] of reader.getRowsJS()) byGrade.set(Number(grade), { count: Number(count), ids: (ids as string[]).map(String) });
      const candidates = [...byGrade.values()].reduce((sum, entry) => sum + entry.count, 0);
      queries.push({
        id: intent.id,
        query: intent.query,
        ...(intent.filters ? { filters: intent.filters } : {}),
        gradeSql: gradeQuery(intent),
        relevantCallIds: byGrade.get(2)?.ids ?? [],
        partialCallIds: byGrade.get(1)?.ids ?? [],
        candidates,
      });
    }
    return queries;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
