// The structured (T2S) building blocks of the planning suite: one per planted pattern of the contact-center
// warehouse. Each block's SQL returns the answer itself (a top-1 row or a labelled finding), so its result contains
// the block's fact only when the planted pattern holds in the data.
import { EFFECTS as E } from '../../databases/contact-center/effects.ts';

export interface DataBlock {
  key: string;
  /** The planted pattern (databases/contact-center/patterns.ts) the block measures. */
  patternId: string;
  /** Ways an analyst asks for it on its own (objective, simple). */
  questions: string[];
  /** The clause a compound question uses for it. */
  clause: string;
  /** The T2S step prompt of the reference plan. */
  prompt: string;
  sql: string;
  /** A string the SQL result contains when the pattern holds. */
  fact: string;
  /** Domain values the prompt filters on (for the redundancy check). */
  terms: string[];
}

/** A labelled finding: the label appears in the result only when `condition` holds in the data. */
const finding = (label: string, otherwise: string, condition: string, from: string): string =>
  `SELECT CASE WHEN ${condition} THEN '${label}' ELSE '${otherwise}' END AS finding FROM ${from}`;

export const DATA_BLOCKS: DataBlock[] = [
  {
    key: 'escalation-time-zone', patternId: 'escalation-by-time-zone',
    questions: ['Which caller time zone has the highest escalation rate?', 'Where are callers escalated most often, by time zone?', 'Rank time zones by escalation rate: which one is on top?'],
    clause: 'which caller time zone is escalated most often',
    prompt: 'Compute the escalation rate of calls per caller time zone and return the time zone with the highest rate',
    sql: 'SELECT time_zone, round(avg(escalated::INTEGER), 4) AS escalation_rate, count(*) AS calls FROM calls GROUP BY time_zone ORDER BY escalation_rate DESC LIMIT 1',
    fact: 'America/Los_Angeles', terms: [],
  },
  {
    key: 'qa-drop-team', patternId: 'qa-drop-after-date',
    questions: [`Which team's average QA score dropped the most after ${E.qaDropDate}?`, `Did any team's QA scores fall after ${E.qaDropDate}? Which one fell most?`, `Compare QA scores before and after ${E.qaDropDate} by team: who declined most?`],
    clause: `which team's QA scores fell most after ${E.qaDropDate}`,
    prompt: `Compute the change in mean QA score per team before and after ${E.qaDropDate} and return the team with the largest drop`,
    sql: `WITH t AS (SELECT a.team, avg(q.score) FILTER (WHERE q.evaluated_at >= TIMESTAMP '${E.qaDropDate}') - avg(q.score) FILTER (WHERE q.evaluated_at < TIMESTAMP '${E.qaDropDate}') AS change
          FROM qa_evaluations q JOIN agents a USING (agent_id) GROUP BY a.team) SELECT team, round(change, 3) AS score_change FROM t ORDER BY change LIMIT 1`,
    // The drop's date is the pivot every later step of its chain measures around again, not a filter re-applied.
    fact: E.qaDropTeam, terms: [],
  },
  {
    key: 'low-csat-driver', patternId: 'low-csat-driver',
    questions: ['Which call driver has the lowest average CSAT?', 'What reason for calling leaves customers least satisfied?', 'Rank call drivers by mean CSAT: which is last?'],
    clause: 'which call driver has the lowest CSAT',
    prompt: 'Compute the mean CSAT per call driver and return the driver with the lowest mean',
    sql: 'SELECT call_driver, round(avg(csat), 3) AS mean_csat, count(csat) AS responses FROM calls GROUP BY call_driver ORDER BY mean_csat LIMIT 1',
    fact: E.lowCsatDriver, terms: [],
  },
  {
    key: 'sentiment-unresolved', patternId: 'sentiment-unresolved',
    questions: ['Does customer sentiment rise or fall during unresolved calls?', 'How does sentiment change from start to end in calls that are not resolved?', 'Do unresolved calls end in a worse mood than they start?'],
    clause: 'whether sentiment falls during unresolved calls',
    prompt: 'Compute the mean change in sentiment from start to end of unresolved calls',
    sql: finding('sentiment falls in unresolved calls', 'sentiment does not fall', 'avg(sentiment_end - sentiment_start) < 0', 'calls WHERE NOT resolved'),
    fact: 'sentiment falls in unresolved calls', terms: [],
  },
  {
    key: 'night-hold', patternId: 'night-shift-hold',
    questions: ['Which agent shift keeps callers on hold the longest?', 'Do hold times differ by shift? Which shift holds longest?', 'Which shift has the highest average hold time?'],
    clause: 'which shift keeps callers on hold longest',
    prompt: 'Compute the average hold time per agent shift and return the shift with the longest average hold',
    sql: 'SELECT a.shift, round(avg(c.hold_s), 1) AS mean_hold_s FROM calls c JOIN agents a USING (agent_id) GROUP BY a.shift ORDER BY mean_hold_s DESC LIMIT 1',
    fact: 'night', terms: [],
  },
  {
    key: 'transfers-resolution', patternId: 'transfers-hurt-resolution',
    questions: ['Do calls with two or more transfers resolve less often than calls never transferred?', 'How do transfers affect first-contact resolution?', 'Is resolution lower for calls transferred at least twice?'],
    clause: 'whether calls transferred twice or more resolve less often',
    prompt: 'Compare the resolution rate of calls with at least 2 transfers against calls with no transfer',
    sql: finding('lower with transfers', 'not lower with transfers', 'avg(resolved::INTEGER) FILTER (WHERE transfers >= 2) < avg(resolved::INTEGER) FILTER (WHERE transfers = 0)', 'calls'),
    fact: 'lower with transfers', terms: [],
  },
  {
    key: 'busiest-day', patternId: 'monday-volume',
    questions: ['Which day of the week has the most calls per day?', 'What is the busiest weekday for the contact center?', 'On which day of the week is call volume highest?'],
    clause: 'which day of the week is busiest',
    prompt: 'Compute the average number of calls per calendar day for each day of the week and return the busiest day',
    sql: 'SELECT dayname(started_at) AS day_name, round(count(*) / count(DISTINCT started_at::DATE), 1) AS calls_per_day FROM calls GROUP BY ALL ORDER BY calls_per_day DESC LIMIT 1',
    fact: 'Monday', terms: [],
  },
  {
    key: 'outage-spike', patternId: 'outage-spike',
    questions: ['When did outage calls spike?', 'On which date did the spike in outage calls start?', 'Was there a burst of outage calls, and when did it begin?'],
    clause: 'when outage calls spiked',
    prompt: 'Count outage calls per day and return the first day whose count is at least four times the median daily count',
    sql: `WITH d AS (SELECT started_at::DATE AS day, count(*) AS n FROM calls WHERE call_driver = 'outage' GROUP BY 1)
          SELECT strftime(min(day), '%Y-%m-%d') AS spike_start FROM d WHERE n >= 4 * (SELECT median(n) FROM d)`,
    fact: E.outageStart, terms: [],
  },
  {
    key: 'fast-site', patternId: 'fast-site',
    questions: ['Which site has the shortest average handle time?', 'Where do agents handle calls fastest, by site?', 'Rank sites by mean call duration: which is quickest?'],
    clause: 'which site has the shortest handle time',
    prompt: 'Compute the average call duration per agent site and return the site with the shortest average',
    sql: 'SELECT a.site, round(avg(c.duration_s), 1) AS mean_duration_s FROM calls c JOIN agents a USING (agent_id) GROUP BY a.site ORDER BY mean_duration_s LIMIT 1',
    fact: E.fastSite, terms: [],
  },
  {
    key: 'long-segment', patternId: 'enterprise-duration',
    questions: ['Which customer segment has the longest calls?', 'Whose calls take longest, by customer segment?', 'Which segment has the highest average call duration?'],
    clause: 'which customer segment has the longest calls',
    prompt: 'Compute the average call duration per customer segment and return the segment with the longest average',
    sql: 'SELECT cu.segment, round(avg(c.duration_s), 1) AS mean_duration_s FROM calls c JOIN customers cu USING (customer_id) GROUP BY cu.segment ORDER BY mean_duration_s DESC LIMIT 1',
    fact: E.slowSegment, terms: [],
  },
  {
    key: 'survey-channel', patternId: 'csat-response-by-channel',
    questions: ['Which channel has the lowest CSAT survey response rate?', 'On which channel do customers answer the satisfaction survey least?', 'Rank channels by survey response rate: which is lowest?'],
    clause: 'which channel answers the CSAT survey least',
    prompt: 'Compute the share of contacts with a CSAT score per channel and return the channel with the lowest share',
    sql: 'SELECT channel, round(avg((csat IS NOT NULL)::INTEGER), 4) AS survey_response_rate FROM calls GROUP BY channel ORDER BY survey_response_rate LIMIT 1',
    fact: 'chat', terms: [],
  },
  {
    key: 'long-hold-csat', patternId: 'long-hold-csat',
    questions: [`Do calls on hold for more than ${E.longHoldSeconds} seconds get lower CSAT?`, `Does a long hold (over ${E.longHoldSeconds} s) hurt satisfaction?`, `How does CSAT compare for holds over ${E.longHoldSeconds} seconds versus shorter ones?`],
    clause: `whether holds over ${E.longHoldSeconds} seconds lower CSAT`,
    prompt: `Compare the mean CSAT of calls with more than ${E.longHoldSeconds} seconds on hold against the other calls`,
    sql: finding('lower after long holds', 'not lower after long holds', `avg(csat) FILTER (WHERE hold_s > ${E.longHoldSeconds}) < avg(csat) FILTER (WHERE hold_s <= ${E.longHoldSeconds})`, 'calls'),
    fact: 'lower after long holds', terms: [],
  },
  {
    key: 'weakest-rubric', patternId: 'compliance-lowest-rubric',
    questions: ['Which QA rubric item has the lowest average score?', 'Where do agents score worst on the QA rubric?', 'What is the weakest item of the quality rubric?'],
    clause: 'which QA rubric item scores lowest',
    prompt: 'Compute the mean QA score per rubric item and return the item with the lowest mean',
    sql: 'SELECT rubric_item, round(avg(score), 3) AS mean_score FROM qa_evaluations GROUP BY rubric_item ORDER BY mean_score LIMIT 1',
    fact: 'compliance_disclosure', terms: [],
  },
  {
    key: 'best-resolution-driver', patternId: 'password-reset-resolution',
    questions: ['Which call driver has the highest first-contact resolution rate?', 'What kind of call is resolved most often on first contact?', 'Rank call drivers by resolution rate: which is first?'],
    clause: 'which call driver resolves best',
    prompt: 'Compute the first-contact resolution rate per call driver and return the driver with the highest rate',
    sql: 'SELECT call_driver, round(avg(resolved::INTEGER), 4) AS resolution_rate FROM calls GROUP BY call_driver ORDER BY resolution_rate DESC LIMIT 1',
    fact: 'password_reset', terms: [],
  },
  {
    key: 'new-agent-escalation', patternId: 'new-agent-escalation',
    questions: [`Do agents with under ${E.newAgentTenureMonths} months of tenure escalate more often?`, 'Are newer agents escalating calls more than experienced ones?', `How does escalation rate compare for agents below ${E.newAgentTenureMonths} months of tenure?`],
    clause: 'whether new agents escalate more',
    prompt: `Compare the escalation rate of agents with tenure under ${E.newAgentTenureMonths} months against the other agents`,
    sql: finding('new agents escalate more', 'new agents do not escalate more', `avg(c.escalated::INTEGER) FILTER (WHERE a.tenure_months < ${E.newAgentTenureMonths}) > avg(c.escalated::INTEGER) FILTER (WHERE a.tenure_months >= ${E.newAgentTenureMonths})`, 'calls c JOIN agents a USING (agent_id)'),
    fact: 'new agents escalate more', terms: [],
  },
  {
    key: 'top-escalating-agent', patternId: 'outlier-agent-escalation',
    questions: ['Which agent has the highest escalation rate?', 'Who escalates calls most often among agents with at least 20 calls?', 'Is there an agent who escalates far more than peers?'],
    clause: 'which agent escalates most',
    prompt: 'Compute the escalation rate per agent with at least 20 calls and return the agent with the highest rate',
    sql: 'SELECT agent_id, round(avg(escalated::INTEGER), 4) AS escalation_rate, count(*) AS calls FROM calls GROUP BY agent_id HAVING count(*) >= 20 ORDER BY escalation_rate DESC LIMIT 1',
    fact: E.outlierAgent, terms: [],
  },
  {
    key: 'low-empathy-agent', patternId: 'outlier-agent-empathy',
    questions: ['Which agent has the lowest empathy QA score?', 'Who scores worst on empathy in QA evaluations?', 'Is any agent far below peers on empathy?'],
    clause: 'which agent scores lowest on empathy',
    prompt: "Compute the mean QA score on 'empathy' per agent with at least 3 evaluations and return the agent with the lowest score",
    sql: "SELECT agent_id, round(avg(score), 3) AS mean_empathy_score FROM qa_evaluations WHERE rubric_item = 'empathy' GROUP BY agent_id HAVING count(*) >= 3 ORDER BY mean_empathy_score LIMIT 1",
    fact: E.outlierAgent, terms: ['empathy'],
  },
  {
    key: 'happiest-segment', patternId: 'premium-csat',
    questions: ['Which customer segment gives the highest CSAT?', 'Which segment is most satisfied with our service?', 'Rank customer segments by mean CSAT: which is first?'],
    clause: 'which customer segment is most satisfied',
    prompt: 'Compute the mean CSAT per customer segment and return the segment with the highest mean',
    sql: 'SELECT cu.segment, round(avg(c.csat), 3) AS mean_csat FROM calls c JOIN customers cu USING (customer_id) GROUP BY cu.segment ORDER BY mean_csat DESC LIMIT 1',
    fact: 'premium', terms: [],
  },
];
