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
  themes: { fact?: string };
  /**
   * Comparison form `peers`: the entity's peers' calls are listed from the head's result too, read and counted the
   * same way, in a branch that runs beside the entity's own, so the synthesis can set one against the other.
   */
  peers: ComparisonGroup;
  /** Comparison form `contrast`: the entity's own other calls (the opposite of `calls`' filter), in a branch of their own. */
  contrast?: ComparisonGroup;
  /** Comparison form `benchmark`: one T2S step comparing a measure of `entityCalls` with every other call. */
  benchmark: { measure: string; clause: string };
  followUps: FollowUp[];
  /** The generic follow-ups (generate-plan-suite.ts) that make sense for the chain's entity (default: all). */
  generic?: string[];
}

/** A branch of calls to set against the entity's: how the question names it, the listing step, the retrieval's words. */
interface ComparisonGroup {
  clause: string;
  calls: ChainStep;
  evidence: string;
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
    contrast: {
      clause: 'how they compare with the same agent\'s calls that were not escalated',
      calls: { prompt: 'List the ids of the non-escalated calls handled by the agent found in (1)', sql: "SELECT call_id FROM calls WHERE agent_id = '(1)' AND NOT escalated ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the non-escalated calls of that agent listed in (2) where the customer explains the problem',
    },
    benchmark: { measure: 'mean CSAT', clause: 'how satisfied their customers are next to everyone else\'s' },
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
    contrast: {
      clause: 'how they compare with calls from that time zone that stayed with the first agent',
      calls: { prompt: 'List the ids of non-escalated calls from callers in the time zone found in (1)', sql: "SELECT call_id FROM calls WHERE time_zone = '(1)' AND NOT escalated ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the non-escalated calls from that time zone listed in (2) where callers explain their problem',
    },
    benchmark: { measure: 'resolution rate', clause: 'whether that region resolves fewer calls than the rest' },
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
    contrast: {
      clause: `how they compare with the same team's calls before ${E.qaDropDate}`,
      calls: { prompt: `List the ids of the calls handled by the team found in (1) before ${E.qaDropDate}`, sql: `SELECT c.call_id FROM calls c JOIN agents a USING (agent_id) WHERE a.team = '(1)' AND c.started_at < TIMESTAMP '${E.qaDropDate}' ORDER BY c.call_id LIMIT 200` },
      evidence: 'Retrieve transcript passages of the earlier calls of that team listed in (2) showing how the agent greets, verifies identity and closes',
    },
    benchmark: { measure: 'mean CSAT', clause: 'whether its customers are less satisfied than other teams\' customers' },
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
    benchmark: { measure: 'mean CSAT', clause: 'how satisfied spike callers were against every other caller' },
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
    contrast: {
      clause: 'how they compare with calls of the same driver rated 4 or 5',
      calls: { prompt: 'List the ids of calls with the driver found in (1) rated 4 or more in CSAT', sql: "SELECT call_id FROM calls WHERE call_driver = '(1)' AND csat >= 4 ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the well rated calls of that driver listed in (2) where customers describe the problem with their account and ask for help',
    },
    benchmark: { measure: 'average hold time', clause: 'whether those callers wait longer on hold than other callers' },
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
    contrast: {
      clause: `how they compare with calls on that shift held ${E.longHoldSeconds} seconds or less`,
      calls: { prompt: `List the ids of calls taken by agents on the shift found in (1) with ${E.longHoldSeconds} seconds or less on hold`, sql: `SELECT c.call_id FROM calls c JOIN agents a USING (agent_id) WHERE a.shift = '(1)' AND c.hold_s <= ${E.longHoldSeconds} ORDER BY c.call_id LIMIT 200` },
      evidence: 'Retrieve transcript passages of the short-hold calls on that shift listed in (2) where customers describe their problem',
    },
    benchmark: { measure: 'mean CSAT', clause: 'whether callers on that shift are less satisfied than the rest' },
    followUps: [
      { clause: 'whether those long holds lower CSAT', prompt: `Compare the mean CSAT of calls on the shift found in (1) held more than ${E.longHoldSeconds} seconds with its other calls`, patternId: 'long-hold-csat',
        sql: finding('lower after long holds', 'not lower after long holds', `avg(c.csat) FILTER (WHERE c.hold_s > ${E.longHoldSeconds}) < avg(c.csat) FILTER (WHERE c.hold_s <= ${E.longHoldSeconds})`, "calls c JOIN agents a USING (agent_id) WHERE a.shift = '(1)'"), fact: 'lower after long holds' },
      { clause: 'which sites staff that shift', prompt: 'Count agents per site on the shift found in (1)',
        sql: "SELECT site, count(*) AS agents FROM agents WHERE shift = '(1)' GROUP BY site ORDER BY agents DESC, site" },
    ],
  },
  {
    key: 'fast-site', head: 'fast-site', entityCalls: 'calls taken by agents at the site found in (1)',
    leads: ['Which site handles calls fastest, and does speed cost it escalations', 'Find the site with the shortest handle time and check what its escalated calls look like', `One site is much quicker on the phone than the others; which, and is it cutting corners`, `Are our fastest agents rushing customers? Start from the quickest site`, `Profile the site whose calls are shortest`, `Where are calls handled quickest, and at what price`],
    calls: { prompt: 'List the ids of the escalated calls taken by agents at the site found in (1)', sql: "SELECT c.call_id FROM calls c JOIN agents a USING (agent_id) WHERE a.site = '(1)' AND c.escalated ORDER BY c.call_id LIMIT 200" },
    evidence: { clause: 'what customers say before those escalations', prompt: 'Retrieve transcript passages of the escalated calls listed in (2) where the customer explains why the problem is not solved', query: CALL_QUERY },
    themes: {},
    peers: {
      clause: 'how they compare with escalated calls at the other sites',
      calls: { prompt: 'List the ids of the escalated calls taken by agents at sites other than the one found in (1)', sql: "SELECT c.call_id FROM calls c JOIN agents a USING (agent_id) WHERE a.site <> '(1)' AND c.escalated ORDER BY c.call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the escalated calls at other sites listed in (2) where the customer explains why the problem is not solved',
    },
    contrast: {
      clause: 'how they compare with that site\'s calls that were not escalated',
      calls: { prompt: 'List the ids of the non-escalated calls taken by agents at the site found in (1)', sql: "SELECT c.call_id FROM calls c JOIN agents a USING (agent_id) WHERE a.site = '(1)' AND NOT c.escalated ORDER BY c.call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the non-escalated calls at that site listed in (2) where the customer explains the problem',
    },
    benchmark: { measure: 'resolution rate', clause: 'whether the site resolves as many calls as the others' },
    followUps: [
      { clause: 'which teams work at that site', prompt: 'Count agents per team at the site found in (1)',
        sql: "SELECT team, count(*) AS agents FROM agents WHERE site = '(1)' GROUP BY team ORDER BY agents DESC, team" },
      { clause: 'which call drivers the site handles', prompt: 'Count calls taken by agents at the site found in (1) per call driver',
        sql: "SELECT c.call_driver, count(*) AS calls FROM calls c JOIN agents a USING (agent_id) WHERE a.site = '(1)' GROUP BY c.call_driver ORDER BY calls DESC, c.call_driver" },
    ],
  },
  {
    key: 'slow-segment', head: 'long-segment', entityCalls: 'calls from customers in the segment found in (1)',
    leads: ['Which customer segment has the longest calls, and what makes them long', 'Find the segment whose calls run longest and look into its escalated calls', `One kind of customer keeps agents on the line far longer; who, and why`, `Our longest calls come from one segment: explain them`, `Investigate the customer segment with the highest handle time`, `Why do calls of our slowest segment drag on`],
    calls: { prompt: 'List the ids of the escalated calls from customers in the segment found in (1)', sql: "SELECT c.call_id FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment = '(1)' AND c.escalated ORDER BY c.call_id LIMIT 200" },
    evidence: { clause: 'what those customers ask for', prompt: 'Retrieve transcript passages of the escalated calls listed in (2) where the customer describes what they need', query: CALL_QUERY },
    themes: {},
    peers: {
      clause: 'how they compare with escalated calls of other segments',
      calls: { prompt: 'List the ids of the escalated calls from customers in segments other than the one found in (1)', sql: "SELECT c.call_id FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment <> '(1)' AND c.escalated ORDER BY c.call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the escalated calls of other segments listed in (2) where the customer describes what they need',
    },
    contrast: {
      clause: 'how they compare with that segment\'s calls that were not escalated',
      calls: { prompt: 'List the ids of the non-escalated calls from customers in the segment found in (1)', sql: "SELECT c.call_id FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment = '(1)' AND NOT c.escalated ORDER BY c.call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the non-escalated calls of that segment listed in (2) where the customer describes what they need',
    },
    benchmark: { measure: 'average hold time', clause: 'whether those customers also wait longer on hold than others' },
    followUps: [
      { clause: 'which call drivers bring that segment in', prompt: 'Count calls from customers in the segment found in (1) per call driver',
        sql: "SELECT c.call_driver, count(*) AS calls FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment = '(1)' GROUP BY c.call_driver ORDER BY calls DESC, c.call_driver" },
      { clause: 'how often their calls get transferred', prompt: 'Compute the average number of transfers of calls from customers in the segment found in (1)',
        sql: "SELECT round(avg(c.transfers), 3) AS mean_transfers, count(*) AS calls FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment = '(1)'" },
    ],
  },
  {
    key: 'happy-segment', head: 'happiest-segment', entityCalls: 'calls from customers in the segment found in (1)',
    leads: ['Which customer segment is happiest with us, and what do we do right on their calls', 'Find the segment with the highest CSAT and learn from its best calls', `One segment rates us far above the rest; who are they and what goes well`, `What can we copy from the calls of our most satisfied segment`, `Study the customer segment that gives the best satisfaction scores`, `Where does satisfaction peak by segment, and why`],
    calls: { prompt: 'List the ids of calls from customers in the segment found in (1) rated 4 or more in CSAT', sql: "SELECT c.call_id FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment = '(1)' AND c.csat >= 4 ORDER BY c.call_id LIMIT 200" },
    evidence: { clause: 'how agents talk to them', prompt: 'Retrieve transcript passages of the well rated calls listed in (2) where the agent resolves the customer problem', query: CALL_QUERY },
    themes: {},
    peers: {
      clause: 'how they compare with well rated calls of other segments',
      calls: { prompt: 'List the ids of calls from customers in segments other than the one found in (1) rated 4 or more in CSAT', sql: "SELECT c.call_id FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment <> '(1)' AND c.csat >= 4 ORDER BY c.call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the well rated calls of other segments listed in (2) where the agent resolves the customer problem',
    },
    contrast: {
      clause: 'how they compare with that segment\'s poorly rated calls',
      calls: { prompt: 'List the ids of calls from customers in the segment found in (1) rated 1 or 2 in CSAT', sql: "SELECT c.call_id FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment = '(1)' AND c.csat <= 2 ORDER BY c.call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the poorly rated calls of that segment listed in (2) where the customer describes the problem',
    },
    benchmark: { measure: 'resolution rate', clause: 'whether their calls are resolved more often than other calls' },
    followUps: [
      { clause: 'which queues serve them', prompt: 'Count calls from customers in the segment found in (1) per queue',
        sql: "SELECT c.queue, count(*) AS calls FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment = '(1)' GROUP BY c.queue ORDER BY calls DESC, c.queue" },
      { clause: 'how often they answer the survey', prompt: 'Compute the survey response rate of calls from customers in the segment found in (1)',
        sql: "SELECT round(avg((c.csat IS NOT NULL)::INTEGER), 4) AS survey_response_rate FROM calls c JOIN customers cu USING (customer_id) WHERE cu.segment = '(1)'" },
    ],
  },
  {
    key: 'silent-channel', head: 'survey-channel', entityCalls: 'contacts on the channel found in (1)',
    leads: ['Which channel answers our satisfaction survey least, and what goes on in its unresolved contacts', 'Find the channel with the lowest survey response and look into its unresolved contacts', `Survey feedback is missing from one channel; which, and what are we not hearing`, `Which channel's customers stay silent on CSAT, and what problems do they leave with`, `Examine the channel with the weakest survey response`, `We hear least from one channel: what happens there`],
    calls: { prompt: 'List the ids of the unresolved contacts on the channel found in (1)', sql: "SELECT call_id FROM calls WHERE channel = '(1)' AND NOT resolved ORDER BY call_id LIMIT 200" },
    evidence: { clause: 'what those customers were left with', prompt: 'Retrieve transcript passages of the unresolved contacts listed in (2) where the customer describes the open problem', query: CALL_QUERY },
    themes: {},
    peers: {
      clause: 'how they compare with unresolved contacts on other channels',
      calls: { prompt: 'List the ids of the unresolved contacts on channels other than the one found in (1)', sql: "SELECT call_id FROM calls WHERE channel <> '(1)' AND NOT resolved ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the unresolved contacts on other channels listed in (2) where the customer describes the open problem',
    },
    contrast: {
      clause: 'how they compare with that channel\'s resolved contacts',
      calls: { prompt: 'List the ids of the resolved contacts on the channel found in (1)', sql: "SELECT call_id FROM calls WHERE channel = '(1)' AND resolved ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the resolved contacts on that channel listed in (2) where the customer describes the problem',
    },
    benchmark: { measure: 'mean CSAT', clause: 'whether the scores it does get are lower than elsewhere' },
    followUps: [
      { clause: 'which queues those contacts go to', prompt: 'Count contacts on the channel found in (1) per queue',
        sql: "SELECT queue, count(*) AS calls FROM calls WHERE channel = '(1)' GROUP BY queue ORDER BY calls DESC, queue" },
      { clause: 'what the scores it does get look like', prompt: 'Compute the mean CSAT of contacts on the channel found in (1)',
        sql: "SELECT round(avg(csat), 3) AS mean_csat, count(csat) AS responses FROM calls WHERE channel = '(1)'" },
    ],
    generic: ['resolution', 'hold', 'escalation'],
  },
  {
    key: 'resolving-driver', head: 'best-resolution-driver', entityCalls: 'calls with the driver found in (1)',
    leads: ['Which call driver gets resolved on first contact most often, and what makes those calls work', 'Find the call driver with the best resolution rate and study its resolved calls', `One kind of call is almost always fixed first time; which, and what can others learn`, `What do our most reliably resolved calls have in common`, `Study the contact reason we resolve best`, `Which reason for calling do we handle best, and how`],
    calls: { prompt: 'List the ids of resolved calls with the driver found in (1)', sql: "SELECT call_id FROM calls WHERE call_driver = '(1)' AND resolved ORDER BY call_id LIMIT 200" },
    evidence: { clause: 'how agents close them', prompt: 'Retrieve transcript passages of the resolved calls listed in (2) where the agent confirms the problem is fixed', query: CALL_QUERY },
    themes: {},
    peers: {
      clause: 'how they compare with resolved calls of other drivers',
      calls: { prompt: 'List the ids of resolved calls with drivers other than the one found in (1)', sql: "SELECT call_id FROM calls WHERE call_driver <> '(1)' AND resolved ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the resolved calls of other drivers listed in (2) where the agent confirms the problem is fixed',
    },
    contrast: {
      clause: 'how they compare with the calls of that driver left unresolved',
      calls: { prompt: 'List the ids of unresolved calls with the driver found in (1)', sql: "SELECT call_id FROM calls WHERE call_driver = '(1)' AND NOT resolved ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the unresolved calls of that driver listed in (2) where the customer describes the problem',
    },
    benchmark: { measure: 'mean CSAT', clause: 'whether customers rate those calls above the rest' },
    followUps: [
      { clause: 'which queues take them', prompt: 'Count calls with the driver found in (1) per queue',
        sql: "SELECT queue, count(*) AS calls FROM calls WHERE call_driver = '(1)' GROUP BY queue ORDER BY calls DESC, queue" },
      { clause: 'how often they are transferred', prompt: 'Compute the average number of transfers of calls with the driver found in (1)',
        sql: "SELECT round(avg(transfers), 3) AS mean_transfers, count(*) AS calls FROM calls WHERE call_driver = '(1)'" },
    ],
  },
  {
    key: 'cold-agent', head: 'low-empathy-agent', entityCalls: 'calls handled by the agent found in (1)',
    leads: ['Which agent scores lowest on empathy, and how do their poorly rated calls go', 'Find the agent with the weakest empathy score and review their worst-rated calls', `QA flags one agent as cold with customers; who, and what do customers experience`, `Coach the least empathetic agent: what do their calls show`, `Who is furthest below peers on empathy, and how does it show on calls`, `Look into the agent with the lowest empathy marks`],
    calls: { prompt: 'List the ids of the calls handled by the agent found in (1) rated 1 or 2 in CSAT', sql: "SELECT call_id FROM calls WHERE agent_id = '(1)' AND csat <= 2 ORDER BY call_id LIMIT 200" },
    evidence: { clause: 'what those customers say to the agent', prompt: 'Retrieve transcript passages of the poorly rated calls listed in (2) where customers describe the problem with their account and ask for help', query: CALL_QUERY, fact: E.outlierAgent },
    themes: {},
    peers: {
      clause: 'how they compare with poorly rated calls of other agents',
      calls: { prompt: 'List the ids of the calls handled by agents other than the one found in (1) rated 1 or 2 in CSAT', sql: "SELECT call_id FROM calls WHERE agent_id <> '(1)' AND csat <= 2 ORDER BY call_id LIMIT 200" },
      evidence: "Retrieve transcript passages of the other agents' poorly rated calls listed in (2) where customers describe the problem with their account and ask for help",
    },
    contrast: {
      clause: 'how they compare with the same agent\'s well rated calls',
      calls: { prompt: 'List the ids of the calls handled by the agent found in (1) rated 4 or more in CSAT', sql: "SELECT call_id FROM calls WHERE agent_id = '(1)' AND csat >= 4 ORDER BY call_id LIMIT 200" },
      evidence: 'Retrieve transcript passages of the well rated calls of that agent listed in (2) where customers describe the problem with their account and ask for help',
    },
    benchmark: { measure: 'escalation rate', clause: 'whether the agent escalates more than the rest of the floor' },
    followUps: [
      { clause: 'which team and site the agent belongs to and how long they have worked', prompt: 'Return the team, site, shift and tenure of the agent found in (1)',
        sql: "SELECT agent_id, team, site, shift, tenure_months FROM agents WHERE agent_id = '(1)'", fact: E.outlierAgent },
      { clause: 'which call drivers the agent takes', prompt: 'Count the calls handled by the agent found in (1) per call driver',
        sql: "SELECT call_driver, count(*) AS calls FROM calls WHERE agent_id = '(1)' GROUP BY call_driver ORDER BY calls DESC, call_driver" },
    ],
  },
];
