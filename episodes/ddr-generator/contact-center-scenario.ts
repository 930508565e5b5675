import { EFFECTS } from '../../databases/contact-center/effects.ts';
import { CALL_DRIVERS, TEAMS } from '../../databases/contact-center/vocabulary.ts';
import { dialectOf, type SqlDialect } from '../../mcp-servers/sql/backends/dialect.ts';
import { ordinal, type FactTemplate, type ScenarioSpec } from './scenario-spec.ts';

const DRIVERS = CALL_DRIVERS.map((entry) => entry.driver);
const QA_SPLIT = EFFECTS.qaDropDate;
/** The half-year splits in two quarters: trends compare January–March with April–June. */
const SECOND_QUARTER = '2026-04-01';

function mostFrequent(dialect: SqlDialect, column: string, where: string): Pick<FactTemplate, 'sql' | 'ambiguousSql'> {
  const counts = `SELECT ${column} AS value, count(*) AS n FROM calls WHERE ${where} GROUP BY 1`;
  return {
    sql: `SELECT value FROM ${dialect.derived(counts, 'c')} ORDER BY n DESC, value LIMIT 1`,
    ambiguousSql: `SELECT count(*) > 1 FROM ${dialect.derived(counts, 'c')} WHERE n = (SELECT max(n) FROM ${dialect.derived(counts, 'm')})`,
  };
}

/** Rank of one group among all groups of `column` by the mean of `value` (1 = the lowest mean); ties make the fact ambiguous. */
function rankAmong(dialect: SqlDialect, column: string, id: string, value: string): Pick<FactTemplate, 'sql' | 'ambiguousSql'> {
  const ranked = `SELECT ${column} AS id, rank() OVER (ORDER BY ${dialect.round(`avg(${value})`, 1)}) AS r FROM calls GROUP BY 1`;
  return {
    sql: `SELECT r FROM ${dialect.derived(ranked, 'ranked')} WHERE id = '${id}'`,
    ambiguousSql: `SELECT count(*) > 1 FROM ${dialect.derived(ranked, 'ranked')} WHERE r = (SELECT r FROM ${dialect.derived(ranked, 'mine')} WHERE id = '${id}')`,
  };
}

const words = (answer: unknown) => (answer === 'stable' ? 'stayed stable' : String(answer));
const signed = (value: unknown, up: string, down: string) => `${Number(value) < 0 ? down : up} by ${Math.abs(Number(value))}`;

/** The contact-center agent's facts in an engine's dialect: a third are lookups and aggregates, the rest insights (rank, trend, anomaly, relationship). */
function agentFacts(dialect: SqlDialect, id: string, context: Record<string, string>): FactTemplate[] {
  const { round } = dialect;
  const agent = `agent_id = '${id}'`;
  const qaMean = (comparison: string) => `(SELECT ${dialect.mean('score')} FROM qa_evaluations WHERE ${agent} AND evaluated_at ${comparison} ${dialect.timestampLiteral(QA_SPLIT)})`;
  const quarterMean = (comparison: string) => `(SELECT avg(duration_s) FROM calls WHERE ${agent} AND started_at ${comparison} ${dialect.timestampLiteral(SECOND_QUARTER)})`;
  const peers = Number(context.agents);
  return [
    {
      id: 'team',
      kind: 'lookup',
      question: `Which team is agent ${id} on?`,
      answer_type: 'category',
      sql: `SELECT team FROM agents WHERE ${agent}`,
      choices: [...TEAMS],
      statement: (answer) => `Agent ${id} is on team ${answer}.`,
    },
    {
      id: 'shift',
      kind: 'lookup',
      question: `Which shift does agent ${id} work?`,
      answer_type: 'category',
      sql: `SELECT shift FROM agents WHERE ${agent}`,
      choices: ['day', 'evening', 'night'],
      statement: (answer) => `They work the ${answer} shift.`,
    },
    {
      id: 'calls',
      kind: 'aggregate',
      question: `How many contacts did agent ${id} handle?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'calls',
      sql: `SELECT count(*) FROM calls WHERE ${agent}`,
      statement: (answer) => `Agent ${id} handled ${answer} calls.`,
    },
    {
      id: 'handle-time',
      kind: 'aggregate',
      question: `What is the average handle time (duration_s) of agent ${id}'s calls, in seconds?`,
      answer_type: 'number',
      tolerance: 1,
      unit: 's',
      sql: `SELECT ${round('avg(duration_s)', 1)} FROM calls WHERE ${agent}`,
      statement: (answer) => `The average handle time is ${answer} seconds.`,
    },
    {
      id: 'top-driver',
      kind: 'aggregate',
      question: `Which call driver is most frequent among agent ${id}'s calls?`,
      answer_type: 'category',
      ...mostFrequent(dialect, 'call_driver', agent),
      choices: DRIVERS,
      statement: (answer) => `The most frequent call driver is ${answer}.`,
    },
    {
      id: 'handle-time-rank',
      kind: 'rank',
      question: `Among all ${peers} agents, where does agent ${id} rank by average handle time (1 = shortest)?`,
      answer_type: 'number',
      tolerance: 0,
      unit: 'rank',
      peers,
      rank_by: 'lowest',
      ...rankAmong(dialect, 'agent_id', id, 'duration_s'),
      statement: (answer) => `By average handle time the agent ranks ${ordinal(answer)} shortest of ${peers} agents.`,
    },
    {
      id: 'escalation-z-score',
      kind: 'anomaly',
      question: `How many standard deviations is agent ${id}'s escalation rate from the mean escalation rate of all agents (positive = above)?`,
      answer_type: 'number',
      tolerance: 0.1,
      unit: 'σ',
      sql:
        `WITH r AS (SELECT agent_id, avg(${dialect.integer('escalated')}) AS rate FROM calls GROUP BY 1) ` +
        `SELECT ${round(`(rate - (SELECT avg(rate) FROM r)) / ${dialect.stddevSampOver('rate', 'r')}`, 2)} FROM r WHERE ${agent}`,
      statement: (answer) => `The escalation rate is ${Math.abs(Number(answer))} standard deviations ${Number(answer) < 0 ? 'below' : 'above'} the mean escalation rate of all agents.`,
    },
    {
      id: 'qa-change',
      kind: 'trend',
      question: `By how many points did agent ${id}'s mean QA score change from evaluations before ${QA_SPLIT} to those from ${QA_SPLIT} on?`,
      answer_type: 'number',
      tolerance: 0.05,
      unit: 'points',
      sql: `SELECT ${round(`${qaMean('>=')} - ${qaMean('<')}`, 2)}`,
      ambiguousSql: `SELECT ${qaMean('>=')} IS NULL OR ${qaMean('<')} IS NULL`,
      statement: (answer) => `The mean QA score ${signed(answer, 'rose', 'fell')} points from before ${QA_SPLIT} to after.`,
    },
    {
      id: 'handle-time-direction',
      kind: 'trend',
      question: `Did agent ${id}'s average handle time increase, decrease or stay stable from January–March to April–June (stable: within 5 %)?`,
      answer_type: 'direction',
      sql:
        `SELECT CASE WHEN abs(${quarterMean('>=')} - ${quarterMean('<')}) <= 0.05 * ${quarterMean('<')} THEN 'stable' ` +
        `WHEN ${quarterMean('>=')} > ${quarterMean('<')} THEN 'increased' ELSE 'decreased' END`,
      ambiguousSql: `SELECT ${quarterMean('>=')} IS NULL OR ${quarterMean('<')} IS NULL`,
      statement: (answer) => `Average handle time ${words(answer)} from January–March to April–June.`,
    },
    {
      id: 'hold-vs-day-evening',
      kind: 'relationship',
      question: `What is the ratio of agent ${id}'s mean hold time to the mean hold time of all day- and evening-shift agents?`,
      answer_type: 'number',
      tolerance: 0.05,
      unit: '×',
      sql: `SELECT ${round(`avg(c.hold_s) FILTER (WHERE c.${agent}) / avg(c.hold_s) FILTER (WHERE a.shift <> 'night')`, 2)} FROM calls c JOIN agents a USING (agent_id)`,
      statement: (answer) => `The mean hold time is ${answer} times the mean hold time of day- and evening-shift agents.`,
    },
    {
      id: 'site-handle-time',
      kind: 'relationship',
      question: `By what percent does the average handle time of the calls taken at agent ${id}'s site differ from that of the other sites?`,
      answer_type: 'number',
      tolerance: 0.5,
      unit: '%',
      sql:
        `WITH s AS (SELECT site FROM agents WHERE ${agent}) ` +
        `SELECT ${round(`100 * (avg(c.duration_s) FILTER (WHERE a.site = s.site) / avg(c.duration_s) FILTER (WHERE a.site <> s.site) - 1)`, 1)} ` +
        `FROM calls c JOIN agents a USING (agent_id) CROSS JOIN s`,
      statement: (answer) => `The average handle time at the agent's site is ${Math.abs(Number(answer))}% ${Number(answer) < 0 ? 'lower' : 'higher'} than at the other sites.`,
    },
  ];
}

/** The contact-center scenario in an engine's dialect: "Analyze agent A-0042" (and the five queues). */
export const contactCenterScenarioFor = (dialect: SqlDialect): ScenarioSpec => ({
  database: 'contact-center',
  taskPrefix: 'ddr-contact-center',
  domain: 'contact center',
  entityKind: 'agent',
  entitiesSql: `SELECT agent_id FROM agents ORDER BY agent_id`,
  contextSql: () => `SELECT count(DISTINCT agent_id) AS agents FROM calls`,
  query: (id) => `Analyze agent ${id}. Explore the database, find what characterises this agent, and end with FINISH: and your findings.`,
  facts: (id, context) => agentFacts(dialect, id, context),
});

/** Queues as DDR entities, in an engine's dialect: "Analyze queue billing". */
export const queueScenarioFor = (dialect: SqlDialect): ScenarioSpec => ({
  database: 'contact-center',
  taskPrefix: 'ddr-contact-center-queue',
  domain: 'contact center',
  entityKind: 'queue',
  entitiesSql: `SELECT DISTINCT queue FROM calls ORDER BY queue`,
  contextSql: () => `SELECT ${dialect.commaListDistinct('agent_id')} AS agents, count(DISTINCT queue) AS queues FROM calls`,
  query: (id) => `Analyze queue ${id}. Explore the database, find what characterises this queue, and end with FINISH: and your findings.`,
  facts: (id, context) => {
    const queue = `queue = '${id}'`;
    const peers = Number(context.queues);
    const half = (comparison: string) => `(SELECT 100 * avg(${dialect.integer('escalated')}) FROM calls WHERE ${queue} AND started_at ${comparison} ${dialect.timestampLiteral(SECOND_QUARTER)})`;
    return [
      {
        id: 'calls',
        kind: 'aggregate',
        question: `How many contacts did queue ${id} receive?`,
        answer_type: 'number',
        tolerance: 0,
        unit: 'calls',
        sql: `SELECT count(*) FROM calls WHERE ${queue}`,
        statement: (answer) => `Queue ${id} received ${answer} calls.`,
      },
      {
        id: 'handle-time',
        kind: 'aggregate',
        question: `What is the average handle time (duration_s) of queue ${id}'s calls, in seconds?`,
        answer_type: 'number',
        tolerance: 1,
        unit: 's',
        sql: `SELECT ${dialect.round('avg(duration_s)', 1)} FROM calls WHERE ${queue}`,
        statement: (answer) => `The average handle time is ${answer} seconds.`,
      },
      {
        id: 'top-driver',
        kind: 'aggregate',
        question: `Which call driver is most frequent among queue ${id}'s calls?`,
        answer_type: 'category',
        ...mostFrequent(dialect, 'call_driver', queue),
        choices: DRIVERS,
        statement: (answer) => `The most frequent call driver is ${answer}.`,
      },
      {
        id: 'busiest-agent',
        kind: 'aggregate',
        question: `Which agent handled the most calls of queue ${id}?`,
        answer_type: 'category',
        ...mostFrequent(dialect, 'agent_id', queue),
        choices: (context.agents ?? '').split(','),
        statement: (answer) => `The agent with the most calls in this queue is ${answer}.`,
      },
      {
        id: 'handle-time-rank',
        kind: 'rank',
        question: `Among the ${peers} queues, where does queue ${id} rank by average handle time (1 = shortest)?`,
        answer_type: 'number',
        tolerance: 0,
        unit: 'rank',
        peers,
        rank_by: 'lowest',
        ...rankAmong(dialect, 'queue', id, 'duration_s'),
        statement: (answer) => `By average handle time the queue ranks ${ordinal(answer)} shortest of ${peers} queues.`,
      },
      {
        id: 'escalation-change',
        kind: 'trend',
        question: `By how many percentage points did queue ${id}'s escalation rate change from January–March to April–June?`,
        answer_type: 'number',
        tolerance: 0.2,
        unit: 'pp',
        sql: `SELECT ${dialect.round(`${half('>=')} - ${half('<')}`, 1)}`,
        statement: (answer) => `The escalation rate ${signed(answer, 'rose', 'fell')} percentage points from January–March to April–June.`,
      },
      {
        id: 'busiest-day',
        kind: 'anomaly',
        question: `How many times the queue's own average daily volume did queue ${id} receive on its busiest day?`,
        answer_type: 'number',
        tolerance: 0.05,
        unit: '×',
        sql: `WITH d AS (SELECT ${dialect.day('started_at')} AS day, count(*) AS n FROM calls WHERE ${queue} GROUP BY 1) SELECT ${dialect.round(dialect.divide('max(n)', 'avg(n)'), 2)} FROM d`,
        statement: (answer) => `Its busiest day brought ${answer} times the queue's average daily volume.`,
      },
      {
        id: 'enterprise-share',
        kind: 'relationship',
        question: `What share of queue ${id}'s calls came from enterprise-segment customers, in percent?`,
        answer_type: 'number',
        tolerance: 0.5,
        unit: '%',
        sql: `SELECT ${dialect.round(`100 * avg(${dialect.integer("(cu.segment = 'enterprise')")})`, 1)} FROM calls c JOIN customers cu USING (customer_id) WHERE c.${queue}`,
        statement: (answer) => `${answer}% of its calls came from enterprise customers.`,
      },
    ];
  },
});

/** The two contact-center scenarios as the committed suite has them (DuckDB). */
export const contactCenterScenario = contactCenterScenarioFor(dialectOf('duckdb'));
export const queueScenario = queueScenarioFor(dialectOf('duckdb'));
