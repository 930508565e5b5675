import { EFFECTS } from '../../databases/contact-center/effects.ts';
import { CALL_DRIVERS, TEAMS } from '../../databases/contact-center/vocabulary.ts';
import type { FactTemplate, ScenarioSpec } from './scenario-spec.ts';

const DRIVERS = CALL_DRIVERS.map((entry) => entry.driver);
const QA_SPLIT = EFFECTS.qaDropDate;

function mostFrequent(column: string, where: string): Pick<FactTemplate, 'sql' | 'ambiguousSql'> {
  const counts = `SELECT ${column} AS value, count(*) AS n FROM calls WHERE ${where} GROUP BY 1`;
  return {
    sql: `SELECT value FROM (${counts}) ORDER BY n DESC, value LIMIT 1`,
    ambiguousSql: `SELECT count(*) > 1 FROM (${counts}) WHERE n = (SELECT max(n) FROM (${counts}))`,
  };
}

/** Facts every call population has (an agent's calls, a queue's calls). */
function callFacts(subject: string, where: string): FactTemplate[] {
  return [
    {
      id: 'calls',
      question: `How many contacts did ${subject} handle?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'calls',
      sql: `SELECT count(*) FROM calls WHERE ${where}`,
      anchors: [['call', 'contact', 'handled']],
      statement: (answer) => `${subject} handled ${answer} calls.`,
    },
    {
      id: 'handle-time',
      question: `What is the average handle time (duration_s) of ${subject}'s calls, in seconds?`,
      answer_type: 'number',
      tolerance: 1,
      unit: 's',
      sql: `SELECT round(avg(duration_s), 1) FROM calls WHERE ${where}`,
      anchors: [['handle time', 'aht', 'duration', 'call length']],
      statement: (answer) => `The average handle time is ${answer} seconds.`,
    },
    {
      id: 'resolution-rate',
      question: `What share of ${subject}'s calls were resolved on first contact, in percent?`,
      answer_type: 'number',
      tolerance: 0.5,
      unit: '%',
      sql: `SELECT round(100 * avg(resolved::INTEGER), 1) FROM calls WHERE ${where}`,
      anchors: [['resolution', 'resolved', 'fcr']],
      statement: (answer) => `First-contact resolution rate: ${answer}%.`,
    },
    {
      id: 'csat',
      question: `What is the mean CSAT (1–5, survey answers only) of ${subject}'s calls?`,
      answer_type: 'number',
      tolerance: 0.02,
      unit: 'points',
      sql: `SELECT round(avg(csat), 2) FROM calls WHERE ${where}`,
      anchors: [['csat', 'satisfaction']],
      statement: (answer) => `Mean CSAT is ${answer} out of 5.`,
    },
    {
      id: 'escalation-rate',
      question: `What share of ${subject}'s calls were escalated, in percent?`,
      answer_type: 'number',
      tolerance: 0.5,
      unit: '%',
      sql: `SELECT round(100 * avg(escalated::INTEGER), 1) FROM calls WHERE ${where}`,
      anchors: [['escalat']],
      statement: (answer) => `Escalation rate: ${answer}%.`,
    },
    {
      id: 'top-driver',
      question: `Which call driver is most frequent among ${subject}'s calls?`,
      answer_type: 'category',
      ...mostFrequent('call_driver', where),
      anchors: [['driver', 'reason', 'contact reason'], ['most', 'top', 'main', 'leading']],
      choices: DRIVERS,
      statement: (answer) => `The most frequent call driver is ${answer}.`,
    },
  ];
}

function agentFacts(id: string): FactTemplate[] {
  const agent = `agent_id = '${id}'`;
  const qaMean = (comparison: string) => `(SELECT avg(score) FROM qa_evaluations WHERE ${agent} AND evaluated_at ${comparison} TIMESTAMP '${QA_SPLIT}')`;
  return [
    {
      id: 'team',
      question: `Which team is agent ${id} on?`,
      answer_type: 'category',
      sql: `SELECT team FROM agents WHERE ${agent}`,
      anchors: [['team']],
      choices: [...TEAMS],
      statement: (answer) => `Agent ${id} is on team ${answer}.`,
    },
    {
      id: 'shift',
      question: `Which shift does agent ${id} work?`,
      answer_type: 'category',
      sql: `SELECT shift FROM agents WHERE ${agent}`,
      anchors: [['shift']],
      choices: ['day', 'evening', 'night'],
      statement: (answer) => `They work the ${answer} shift.`,
    },
    ...callFacts(`Agent ${id}`, agent),
    {
      id: 'qa-trend',
      question: `Did agent ${id}'s mean QA score improve, worsen or stay the same from evaluations before ${QA_SPLIT} to those from ${QA_SPLIT} on (same: within 0.15 points)?`,
      answer_type: 'direction',
      higher_is_better: true,
      sql:
        `SELECT CASE WHEN abs(${qaMean('>=')} - ${qaMean('<')}) <= 0.15 THEN 'same' ` +
        `WHEN ${qaMean('>=')} > ${qaMean('<')} THEN 'improved' ELSE 'worsened' END`,
      ambiguousSql: `SELECT ${qaMean('>=')} IS NULL OR ${qaMean('<')} IS NULL`,
      anchors: [['qa', 'quality']],
      statement: (answer) => `QA scores ${answer === 'same' ? 'stayed about the same' : answer} from before ${QA_SPLIT} to after.`,
    },
  ];
}

/** The contact-center scenario: "Analyze agent A-0042" (and the five queues). */
export const contactCenterScenario: ScenarioSpec = {
  database: 'contact-center',
  taskPrefix: 'ddr-contact-center',
  domain: 'contact center',
  entityKind: 'agent',
  entitiesSql: `SELECT agent_id FROM agents ORDER BY agent_id`,
  query: (id) => `Analyze agent ${id}. Explore the database, find what characterises this agent, and end with FINISH: and your findings.`,
  facts: agentFacts,
};

/** Queues as DDR entities: "Analyze queue billing". */
export const queueScenario: ScenarioSpec = {
  database: 'contact-center',
  taskPrefix: 'ddr-contact-center-queue',
  domain: 'contact center',
  entityKind: 'queue',
  entitiesSql: `SELECT DISTINCT queue FROM calls ORDER BY queue`,
  contextSql: () => `SELECT string_agg(agent_id, ',' ORDER BY agent_id) AS agents FROM agents`,
  query: (id) => `Analyze queue ${id}. Explore the database, find what characterises this queue, and end with FINISH: and your findings.`,
  facts: (id, context) => {
    const queue = `queue = '${id}'`;
    return [
      ...callFacts(`Queue ${id}`, queue),
      {
        id: 'busiest-agent',
        question: `Which agent handled the most calls of queue ${id}?`,
        answer_type: 'category',
        ...mostFrequent('agent_id', queue),
        anchors: [['agent']],
        choices: (context.agents ?? '').split(','),
        statement: (answer) => `The agent with the most calls in this queue is ${answer}.`,
      },
    ];
  },
};
