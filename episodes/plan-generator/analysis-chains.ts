// The compound questions' building blocks: one coherent analysis per planted pattern, in which each later step
// consumes what an earlier one found. The head T2S step finds the entity (a time zone, an agent, a team, a date…);
// a T2S step lists the calls of that entity ('(1)' in its SQL is bound to the head's first value); a RAG step reads
// the transcripts of exactly those calls (filter call_ids "(2)"); a T2S step counts the key moments of the calls the
// retrieval returned ('(3)[]' is bound to their call ids); follow-up T2S steps measure the same entity further; an LLM
// step explains. Facts are structured values (entity ids in the retrieval's call metadata, key-moment labels, labelled
// findings): nothing depends on how the transcripts are worded.
import { EFFECTS as E } from '../../databases/contact-center/effects.ts';

export interface ChainStep {
  prompt: string;
  sql: string;
  /** A string the step's result contains when the planted pattern holds. */
  fact?: string;
  patternId?: string;
}

export interface FollowUp extends ChainStep {
  /** The clause the question adds for it. */
  clause: string;
  /** Its name in the skeleton's name (the chain's own follow-ups are named by position). */
  key?: string;
}

export interface AnalysisChain {
  key: string;
  /** The entity's calls in the words a follow-up uses ("calls from the time zone found in (1)"). */
  entityCalls: string;
  /** The data block (data-blocks.ts) whose step heads the chain. */
  head: string;
  /** Ways an analyst asks the chain's main question; a follow-up clause is appended. */
  leads: string[];
  /** Lists the calls of the head's entity; `'(1)'` stands for the head's first value. */
  calls: ChainStep;
  /** The RAG step over the calls listed (subjective questions only): retrieval query and the fact its metadata shows. */
  evidence: { clause: string; prompt: string; query: string; fact?: string };
  /** Counts the key moments of the calls read ('(k)[]' bound to them); `fact` is a moment those calls have. */
  themes: { fact: string };
  /**
   * The comparison group (the entity's peers): its calls are listed from the head's result too, read and counted the
   * same way, in a branch that runs beside the entity's own, so the synthesis can set one against the other.
   */
  peers: { clause: string; calls: ChainStep; evidence: string };
  followUps: FollowUp[];
}

/** The key moments of the calls an upstream step returned, most frequent first. */
export const themesSql = (source: number): string =>
  `SELECT moment, count(DISTINCT call_id) AS calls FROM key_moments WHERE call_id IN '(${source})[]' GROUP BY moment ORDER BY calls DESC, moment`;

const finding = (label: string, otherwise: string, condition: string, from: string): string =>
  `SELECT CASE WHEN ${condition} THEN '${label}' ELSE '${otherwise}' END AS finding FROM ${from}`;

/** A generic retrieval query: the call ids already narrow the search; the words only rank passages within those calls. */
const CALL_QUERY = 'customer problem account help';

export const ANALYSIS_CHAINS: AnalysisChain[] = [
  {
    key: 'escalating-agent', head: 'top-escalating-agent', entityCalls: 'calls handled by the agent found in (1)',
    leads: ['Which agent escalates far more than peers, and what happens on those calls', 'Find the agent with the highest escalation rate and look into their escalated calls', `Our escalation numbers point at one agent; who is it and why`, `I need a review of the agent whose calls get escalated most`, `Is one agent driving escalations? Profile that agent's escalated calls`, `Show me what sets the most-escalating agent apart`],
    calls: { prompt: 'List the ids of the escalated calls handled by the agent found in (1)', sql: "SELECT call_id FROM calls WHERE agent_id = '(1)' AND escalated ORDER BY call_id LIMIT 200" },
    evidence: { clause: 'what customers say on them', prompt: 'Retrieve transcript passages of the escalated calls listed in (2) where the customer pushes for escalation to a supervisor', query: CALL_QUERY, fact: E.outlierAgent },
    themes: { fact: 'escalation_request' },
    peers: {
      clause: 'how they compare with the escalated calls of other agents',
      calls: { prompt: 'List the ids of the escalated calls handled by agents other than the one found in (1)', sql: "SELECT call_id FROM calls WHERE agent_id <> '(1)' AND escalated ORDER BY call_id LIMIT 200" },
      evidence: "Retrieve transcript passages of the other agents' escalated calls listed in (2) where the customer pushes for escalation to a supervisor",
    },
    followUps: [
      { clause: 'how the agent scores on empathy against peers', prompt: "Compare the mean QA score on 'empathy' of the agent found in (1) against the other agents' mean QA score on 'empathy'", patternId: 'outlier-agent-empathy',
        sql: finding('below peers on empathy', 'not below peers on empathy', "avg(score) FILTER (WHERE agent_id = '(1)') < avg(score)", "qa_evaluations WHERE rubric_item = 'empathy'"), fact: 'below peers on empathy' },
      { clause: "which team and site the agent belongs to and how long they have worked", prompt: 'Return the team, site, shift and tenure of the agent found in (1)',
        sql: "SELECT agent_id, team, site, shift, tenure_months FROM agents WHERE agent_id = '(1)'", fact: E.outlierAgent },
      { clause: 'which call drivers their escalations come from', prompt: 'Count the escalated calls of the agent found in (1) per call driver',
        sql: "SELECT call_driver, count(*) AS escalated_calls FROM calls WHERE agent_id = '(1)' AND escalated GROUP BY call_driver ORDER BY escalated_calls DESC, call_driver" },
    ],
  },
  {
    key: 'escalating-zone', head: 'escalation-time-zone', entityCalls: 'calls from the time zone found in (1)',
    leads: ['Which caller time zone is escalated most often, and what do escalated callers there go through', 'Find the time zone with the highest escalation rate and examine its escalated calls', `Escalations cluster in one caller region; which one, and what is behind it`, `Break down escalations by caller time zone and dig into the worst region`, `Which region's callers end up with a supervisor most, and why`, `Investigate the time zone whose callers escalate most`],
    calls: { prompt: 'List the ids of escalated calls from callers in the time zone found in (1)', sql: "SELECT call_id FROM calls WHERE time_zone = '(1)' AND escalated ORDER BY call_id LIMIT 200" },
    evidence: { clause: 'what those callers say', prompt: 'Retrieve transcript passages of the escalated calls listed in (2) where callers explain why they want escalation', query: CALL_QUERY, fact: 'America/Los_Angeles' },
    themes: { fact: 'escalation_request' },
    peers: {
      clause: 'how they compare with escalated calls from other time zones',
      calls: { prompt: 'List the ids of escalated calls from callers outside the time zone found in (1)', sql: "SELECT call_id FROM calls WHERE time_zone <> '(1)' AND escalated ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the escalated calls from other time zones listed in (2) where callers explain why they want escalation',
    },
    followUps: [
      { clause: 'which queues those escalations come from', prompt: 'Count the escalated calls from the time zone found in (1) per queue',
        sql: "SELECT queue, count(*) AS escalated_calls FROM calls WHERE time_zone = '(1)' AND escalated GROUP BY queue ORDER BY escalated_calls DESC, queue" },
      { clause: 'how satisfied escalated callers there are compared with the rest', prompt: 'Compare the mean CSAT of escalated calls from the time zone found in (1) with its other calls',
        sql: "SELECT escalated, round(avg(csat), 3) AS mean_csat, count(*) AS calls FROM calls WHERE time_zone = '(1)' GROUP BY escalated ORDER BY escalated" },
    ],
  },
  {
    key: 'dropping-team', head: 'qa-drop-team', entityCalls: 'calls handled by the team found in (1)',
    leads: [`Which team's QA scores fell most after ${E.qaDropDate}, and what do its recent calls show`, `Find the team whose QA scores dropped most after ${E.qaDropDate} and review its recent calls`, `Quality fell somewhere in spring: find the team that slipped after ${E.qaDropDate}`, `Audit the team with the steepest QA decline since ${E.qaDropDate}`, `One team's evaluations got worse from ${E.qaDropDate}; diagnose it`, `Which team lost the most QA points after ${E.qaDropDate}, and where`],
    calls: { prompt: `List the ids of the calls handled by the team found in (1) since ${E.qaDropDate}`, sql: `SELECT c.call_id FROM calls c JOIN agents a USING (agent_id) WHERE a.team = '(1)' AND c.started_at >= TIMESTAMP '${E.qaDropDate}' ORDER BY c.call_id LIMIT 200` },
    evidence: { clause: 'how its agents handle customers', prompt: 'Retrieve transcript passages of the calls listed in (2) showing how the agent greets, verifies identity and closes', query: CALL_QUERY, fact: E.qaDropTeam },
    themes: { fact: 'hold_placed' },
    peers: {
      clause: "how they compare with the other teams' calls over the same period",
      calls: { prompt: `List the ids of the calls handled by teams other than the one found in (1) since ${E.qaDropDate}`, sql: `SELECT c.call_id FROM calls c JOIN agents a USING (agent_id) WHERE a.team <> '(1)' AND c.started_at >= TIMESTAMP '${E.qaDropDate}' ORDER BY c.call_id LIMIT 200` },
      evidence: "Retrieve transcript passages of the other teams' calls listed in (2) showing how the agent greets, verifies identity and closes",
    },
    followUps: [
      { clause: 'which rubric items fell most for that team', prompt: `Compute the change in mean QA score per rubric item for the team found in (1) before and after ${E.qaDropDate}`,
        sql: `SELECT q.rubric_item, round(avg(q.score) FILTER (WHERE q.evaluated_at >= TIMESTAMP '${E.qaDropDate}') - avg(q.score) FILTER (WHERE q.evaluated_at < TIMESTAMP '${E.qaDropDate}'), 3) AS score_change FROM qa_evaluations q JOIN agents a USING (agent_id) WHERE a.team = '(1)' GROUP BY q.rubric_item ORDER BY score_change` },
      { clause: 'which of its agents declined most', prompt: `Compute the change in mean QA score per agent of the team found in (1) before and after ${E.qaDropDate} and return the bottom 5`,
        sql: `SELECT q.agent_id, round(avg(q.score) FILTER (WHERE q.evaluated_at >= TIMESTAMP '${E.qaDropDate}') - avg(q.score) FILTER (WHERE q.evaluated_at < TIMESTAMP '${E.qaDropDate}'), 3) AS score_change FROM qa_evaluations q JOIN agents a USING (agent_id) WHERE a.team = '(1)' GROUP BY q.agent_id ORDER BY score_change NULLS LAST LIMIT 5` },
    ],
  },
  {
    key: 'outage', head: 'outage-spike', entityCalls: 'outage calls from the day found in (1) and the two days after',
    leads: ['When did outage calls spike, and what did the calls of the spike look like', 'Find the day the outage calls burst and look into the calls from that spike', `Reconstruct the outage incident from the call data`, `There was a burst of outage calls this spring: when, and what happened`, `Give me a post-mortem of the outage spike as seen by the contact center`, `Describe the outage surge: its start day and its calls`],
    calls: { prompt: 'List the ids of outage calls from the day found in (1) and the two days after', sql: "SELECT call_id FROM calls WHERE call_driver = 'outage' AND started_at::DATE BETWEEN '(1)'::DATE AND '(1)'::DATE + 2 ORDER BY call_id LIMIT 200" },
    evidence: { clause: 'what customers reported', prompt: 'Retrieve transcript passages of the outage calls listed in (2) where customers describe the service disruption', query: CALL_QUERY, fact: 'technical_support' },
    themes: { fact: 'resolution_confirmed' },
    peers: {
      clause: 'how they compare with outage calls outside the spike',
      calls: { prompt: 'List the ids of outage calls from outside the day found in (1) and the two days after', sql: "SELECT call_id FROM calls WHERE call_driver = 'outage' AND started_at::DATE NOT BETWEEN '(1)'::DATE AND '(1)'::DATE + 2 ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the outage calls from outside the spike listed in (2) where customers describe the service disruption',
    },
    followUps: [
      { clause: 'which queues took those calls', prompt: 'Count outage calls per queue from the day found in (1) and the two days after',
        sql: "SELECT queue, count(*) AS calls FROM calls WHERE call_driver = 'outage' AND started_at::DATE BETWEEN '(1)'::DATE AND '(1)'::DATE + 2 GROUP BY queue ORDER BY calls DESC", fact: 'technical_support' },
      { clause: 'how their resolution compared with outage calls outside the spike', prompt: 'Compare the resolution rate of outage calls from the day found in (1) and the two days after with the other outage calls',
        sql: "SELECT started_at::DATE BETWEEN '(1)'::DATE AND '(1)'::DATE + 2 AS in_spike, round(avg(resolved::INTEGER), 4) AS resolution_rate, count(*) AS calls FROM calls WHERE call_driver = 'outage' GROUP BY in_spike ORDER BY in_spike" },
    ],
  },
  {
    key: 'unhappy-driver', head: 'low-csat-driver', entityCalls: 'calls with the driver found in (1)',
    leads: ['Which call driver leaves customers least satisfied, and what goes on in its worst-rated calls', 'Find the call driver with the lowest CSAT and dig into its poorly rated calls', `Customers rate one kind of call far worse than the others; which kind and why`, `Diagnose the contact reason behind our lowest satisfaction scores`, `Which reason for calling produces the unhappiest customers, and what goes wrong`, `Explain the weakest call driver on satisfaction`],
    calls: { prompt: 'List the ids of calls with the driver found in (1) rated 1 or 2 in CSAT', sql: "SELECT call_id FROM calls WHERE call_driver = '(1)' AND csat <= 2 ORDER BY call_id LIMIT 200" },
    evidence: { clause: 'what those customers complain about', prompt: 'Retrieve transcript passages of the poorly rated calls listed in (2) where customers describe the problem with their account and ask for help', query: CALL_QUERY, fact: 'billing' },
    themes: { fact: 'hold_placed' },
    peers: {
      clause: 'how they compare with poorly rated calls of other drivers',
      calls: { prompt: 'List the ids of calls with drivers other than the one found in (1) rated 1 or 2 in CSAT', sql: "SELECT call_id FROM calls WHERE call_driver <> '(1)' AND csat <= 2 ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the poorly rated calls of other drivers listed in (2) where customers describe the problem with their account and ask for help',
    },
    followUps: [
      { clause: 'whether long holds drag its CSAT down', prompt: `Compare the mean CSAT of calls with the driver found in (1) held more than ${E.longHoldSeconds} seconds with its other calls`, patternId: 'long-hold-csat',
        sql: finding('lower after long holds', 'not lower after long holds', `avg(csat) FILTER (WHERE hold_s > ${E.longHoldSeconds}) < avg(csat) FILTER (WHERE hold_s <= ${E.longHoldSeconds})`, "calls WHERE call_driver = '(1)'"), fact: 'lower after long holds' },
      { clause: 'which queues handle it', prompt: 'Count calls with the driver found in (1) per queue',
        sql: "SELECT queue, count(*) AS calls FROM calls WHERE call_driver = '(1)' GROUP BY queue ORDER BY calls DESC", fact: 'billing' },
      { clause: 'how often those calls get resolved', prompt: 'Compute the first-contact resolution rate of calls with the driver found in (1)',
        sql: "SELECT round(avg(resolved::INTEGER), 4) AS resolution_rate, count(*) AS calls FROM calls WHERE call_driver = '(1)'" },
    ],
  },
  {
    key: 'holding-shift', head: 'night-hold', entityCalls: 'calls handled by agents on the shift found in (1)',
    leads: ['Which shift keeps callers on hold longest, and how do its long-hold calls go', 'Find the shift with the longest holds and look into its long-hold calls', `Hold times balloon on one shift; find it and examine those holds`, `Which working shift makes customers wait most, and how do those calls go`, `Our hold-time problem seems tied to a shift: investigate`, `Profile the shift with the worst average hold`],
    calls: { prompt: `List the ids of calls taken by agents on the shift found in (1) with more than ${E.longHoldSeconds} seconds on hold`, sql: `SELECT c.call_id FROM calls c JOIN agents a USING (agent_id) WHERE a.shift = '(1)' AND c.hold_s > ${E.longHoldSeconds} ORDER BY c.call_id LIMIT 200` },
    evidence: { clause: 'what callers say about waiting', prompt: 'Retrieve transcript passages of the long-hold calls listed in (2) where customers react to waiting on hold', query: CALL_QUERY },
    themes: { fact: 'hold_placed' },
    peers: {
      clause: 'how they compare with long-hold calls on other shifts',
      calls: { prompt: `List the ids of calls taken by agents on shifts other than the one found in (1) with more than ${E.longHoldSeconds} seconds on hold`, sql: `SELECT c.call_id FROM calls c JOIN agents a USING (agent_id) WHERE a.shift <> '(1)' AND c.hold_s > ${E.longHoldSeconds} ORDER BY c.call_id LIMIT 200` },
      evidence: 'Retrieve transcript passages of the long-hold calls on other shifts listed in (2) where customers react to waiting on hold',
    },
    followUps: [
      { clause: 'whether those long holds lower CSAT', prompt: `Compare the mean CSAT of calls on the shift found in (1) held more than ${E.longHoldSeconds} seconds with its other calls`, patternId: 'long-hold-csat',
        sql: finding('lower after long holds', 'not lower after long holds', `avg(c.csat) FILTER (WHERE c.hold_s > ${E.longHoldSeconds}) < avg(c.csat) FILTER (WHERE c.hold_s <= ${E.longHoldSeconds})`, "calls c JOIN agents a USING (agent_id) WHERE a.shift = '(1)'"), fact: 'lower after long holds' },
      { clause: 'which sites staff that shift', prompt: 'Count agents per site on the shift found in (1)',
        sql: "SELECT site, count(*) AS agents FROM agents WHERE shift = '(1)' GROUP BY site ORDER BY agents DESC, site" },
    ],
  },
];
