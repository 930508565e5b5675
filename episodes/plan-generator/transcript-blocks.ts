// The unstructured (RAG) building blocks of the simple subjective questions: what customers and agents say on calls.
// A retrieval's query is a hint in words; its filters select the calls, and its fact is call metadata they carry.
import { EFFECTS as E } from '../../databases/contact-center/effects.ts';

export interface TranscriptBlock {
  key: string;
  /** Ways an analyst asks about it on its own (subjective, simple). */
  questions: string[];
  /** The clause a compound question uses for it. */
  clause: string;
  /** The RAG step prompt of the reference plan. */
  prompt: string;
  /** The LLM step prompt that summarises the retrieved passages; "(R)" stands for the RAG step. */
  synthesis: string;
  retrieval: { query: string; filters: Record<string, unknown> };
  /**
   * A call-metadata value (queue, time zone, agent, team) the retrieved passages carry: the retrieval reached the
   * right calls. Never a transcript phrase — transcripts are worded freely, and a fact must not depend on wording.
   */
  fact?: string;
  terms: string[];
}

export const TRANSCRIPT_BLOCKS: TranscriptBlock[] = [
  {
    key: 'cancel-reasons',
    questions: ['Why do customers say they want to cancel?', 'What reasons do callers give for cancelling their account?', 'What pushes customers to cancel, in their own words?'],
    clause: 'why customers say they want to cancel',
    prompt: 'Retrieve transcript passages from retention calls where customers explain why they want to cancel',
    synthesis: 'Summarise the cancellation reasons customers give in (R)',
    retrieval: { query: 'cancel my account cheaper offer another provider', filters: { queue: 'retention' } },
    fact: 'retention', terms: ['retention'],
  },
  {
    key: 'billing-complaints',
    questions: ['What do customers complain about on billing calls?', 'What are the main billing complaints customers raise?', 'How do customers describe their billing problems?'],
    clause: 'what customers complain about on billing calls',
    prompt: 'Retrieve transcript passages from billing calls where customers describe the charge they dispute',
    synthesis: 'Summarise the disputed charges customers describe in (R)',
    retrieval: { query: 'charge on my bill I do not recognise', filters: { queue: 'billing' } },
    fact: 'billing', terms: ['billing'],
  },
  {
    key: 'supervisor-requests',
    questions: ['What do customers say when they ask for a supervisor?', 'How do escalation requests sound on calls?', 'What language do customers use when escalating?'],
    clause: 'what customers say when they ask for a supervisor',
    prompt: 'Retrieve transcript passages from escalated calls where the customer asks for a supervisor',
    synthesis: 'Describe how customers ask for escalation in (R)',
    retrieval: { query: 'speak to a supervisor', filters: { escalated: true } },
    terms: [],
  },
  {
    key: 'outage-descriptions',
    questions: ['How do customers describe service outages?', 'What do callers report during an outage?', 'What symptoms do customers mention when their service is down?'],
    clause: 'how customers describe the outage',
    prompt: `Retrieve transcript passages from technical support calls between ${E.outageStart} and the two days after where customers describe the service being down`,
    synthesis: 'Summarise the outage symptoms customers report in (R)',
    retrieval: { query: 'service down since this morning restarting the router', filters: { queue: 'technical_support', date_from: E.outageStart, date_to: '2026-03-12' } },
    fact: 'technical_support', terms: ['technical support', E.outageStart],
  },
  {
    key: 'password-issues',
    questions: ['What problems do customers report when locked out of their account?', 'What do callers say about password resets?', 'Why do customers call about being locked out?'],
    clause: 'what customers say about being locked out',
    prompt: 'Retrieve transcript passages from general queue calls where customers describe being locked out of their online account',
    synthesis: 'Summarise the login problems described in (R)',
    retrieval: { query: 'locked out of my online account reset email never arrives', filters: { queue: 'general' } },
    fact: 'general', terms: ['general'],
  },
  {
    key: 'unresolved-frustration',
    questions: ['How do customers react when their issue is not resolved?', 'What do customers say at the end of unresolved calls?', 'What is the tone of customers whose problem was not fixed?'],
    clause: 'how customers react when their issue is not resolved',
    prompt: 'Retrieve transcript passages from unresolved calls where customers react to the outcome',
    synthesis: 'Describe how customers react when the issue stays unresolved in (R)',
    retrieval: { query: 'unacceptable very disappointed with your service', filters: { resolved: false } },
    terms: [],
  },
  {
    key: 'hold-experience',
    questions: ['How do agents introduce holds to customers?', 'What do agents say when they put a caller on hold?', 'How are holds announced on calls?'],
    clause: 'how agents announce holds',
    prompt: 'Retrieve transcript passages where agents place the customer on hold and come back',
    synthesis: 'Describe how holds are handled in (R)',
    retrieval: { query: 'place you on a brief hold thank you for holding', filters: {} },
    terms: [],
  },
  {
    key: 'refund-offers',
    questions: ['How do agents offer refunds to customers who want to leave?', 'What refund offers do agents make on retention calls?', 'How are retention refunds phrased by agents?'],
    clause: 'how agents phrase refund offers',
    prompt: 'Retrieve transcript passages from retention calls where the agent offers a refund',
    synthesis: 'Summarise the refund offers made in (R)',
    retrieval: { query: 'offer you a refund credit on your next bill', filters: { queue: 'retention' } },
    fact: 'retention', terms: ['retention'],
  },
  {
    key: 'cancel-threats',
    questions: ['How do customers threaten to cancel during calls?', 'What do customers say when they threaten to leave?', 'How often and how do callers mention cancelling their service?'],
    clause: 'how customers threaten to cancel',
    prompt: 'Retrieve transcript passages where customers threaten to cancel their service if the issue is not fixed',
    synthesis: 'Describe the cancellation threats in (R)',
    retrieval: { query: 'not sorted out today going to cancel my service', filters: {} },
    terms: [],
  },
  {
    key: 'device-setup',
    questions: ['What problems do customers have setting up new devices?', 'Where do device activations fail, according to callers?', 'What do customers say about device setup issues?'],
    clause: 'what goes wrong when customers set up devices',
    prompt: 'Retrieve transcript passages from technical support calls where customers describe a failing device setup',
    synthesis: 'Summarise the device setup problems in (R)',
    retrieval: { query: 'cannot get my new device set up failing at the activation step', filters: { queue: 'technical_support' } },
    fact: 'technical_support', terms: ['technical support'],
  },
  {
    key: 'shipping-delays',
    questions: ['What do customers say about late orders?', 'How do callers describe shipping delays?', 'What frustrates customers whose order has not arrived?'],
    clause: 'what customers say about late orders',
    prompt: 'Retrieve transcript passages from general queue calls where customers say their order has not arrived',
    synthesis: 'Summarise the shipping complaints in (R)',
    retrieval: { query: 'order has not arrived tracking page has not changed', filters: { queue: 'general' } },
    fact: 'general', terms: ['general'],
  },
  {
    key: 'transfer-handling',
    questions: ['How do agents explain transfers to customers?', 'What do agents say when they transfer a call?', 'How are customers told they are being transferred?'],
    clause: 'how agents explain transfers',
    prompt: 'Retrieve transcript passages where an agent transfers the customer to a colleague',
    synthesis: 'Describe how transfers are announced in (R)',
    retrieval: { query: 'transfer you to a colleague who specialises', filters: {} },
    terms: [],
  },
  {
    key: 'la-escalations',
    questions: ['What do escalated callers from America/Los_Angeles say?', 'Why do West Coast callers ask for supervisors?', 'How do escalations from the America/Los_Angeles time zone unfold?'],
    clause: 'what escalated callers from America/Los_Angeles say',
    prompt: 'Retrieve transcript passages from escalated calls in the America/Los_Angeles time zone where the customer asks for a supervisor',
    synthesis: 'Summarise what the escalated callers in (R) ask for',
    retrieval: { query: 'speak to a supervisor escalating', filters: { time_zone: 'America/Los_Angeles', escalated: true } },
    fact: 'America/Los_Angeles', terms: ['America/Los_Angeles'],
  },
  {
    key: 'outlier-agent-calls',
    questions: [`How does agent ${E.outlierAgent} handle escalations?`, `What happens on escalated calls handled by ${E.outlierAgent}?`, `What do customers of agent ${E.outlierAgent} say before escalating?`],
    clause: `how agent ${E.outlierAgent}'s escalated calls go`,
    prompt: `Retrieve transcript passages from escalated calls of agent ${E.outlierAgent} where the call is escalated`,
    synthesis: 'Describe how the escalations in (R) unfold',
    retrieval: { query: 'supervisor escalating this', filters: { agent_id: E.outlierAgent, escalated: true } },
    fact: E.outlierAgent, terms: [E.outlierAgent],
  },
  {
    key: 'ember-calls',
    questions: [`How do team ${E.qaDropTeam}'s agents open and close calls since ${E.qaDropDate}?`, `What do calls of team ${E.qaDropTeam} sound like after ${E.qaDropDate}?`, `How do customers react to team ${E.qaDropTeam} after ${E.qaDropDate}?`],
    clause: `how team ${E.qaDropTeam}'s recent calls sound`,
    prompt: `Retrieve transcript passages from team ${E.qaDropTeam} calls since ${E.qaDropDate} showing how agents close the call`,
    synthesis: 'Describe the agent behaviour seen in (R)',
    retrieval: { query: 'thank you for contacting us have a good day', filters: { team: E.qaDropTeam, date_from: E.qaDropDate } },
    fact: E.qaDropTeam, terms: [E.qaDropTeam, E.qaDropDate],
  },
  {
    key: 'payment-plans',
    questions: ['What payment arrangements do customers ask for?', 'How do customers describe their need for a payment plan?', 'What do callers propose when they cannot pay their balance?'],
    clause: 'what payment arrangements customers ask for',
    prompt: 'Retrieve transcript passages from billing calls where customers ask to set up a payment plan',
    synthesis: 'Summarise the payment arrangements customers ask for in (R)',
    retrieval: { query: 'set up a payment plan pay half now rest end of the month', filters: { queue: 'billing' } },
    fact: 'billing', terms: ['billing'],
  },
  {
    key: 'plan-changes',
    questions: ['What do customers want when they change their plan?', 'Why do callers ask to switch plans?', 'What are customers looking for in a plan change?'],
    clause: 'what customers want from a plan change',
    prompt: 'Retrieve transcript passages from sales calls where customers ask to change their plan',
    synthesis: 'Summarise what customers want from a new plan in (R)',
    retrieval: { query: 'change my plan more data for less money', filters: { queue: 'sales' } },
    fact: 'sales', terms: ['sales'],
  },
  {
    key: 'new-lines',
    questions: ['Who are customers adding new lines for?', 'What do customers say when they add a line to their account?', 'Why do callers request a new line?'],
    clause: 'why customers add new lines',
    prompt: 'Retrieve transcript passages from sales calls where customers ask to add a new line to their account',
    synthesis: 'Summarise who the new lines in (R) are for',
    retrieval: { query: 'add a new line to my account phone plan', filters: { queue: 'sales' } },
    fact: 'sales', terms: ['sales'],
  },
];
