import type { StyleGrader } from '../../graders/style-grader.ts';
import { ServiceTaskSchema, type ServiceTask } from '../../schemas/service-task.ts';
import type { EpisodeStyle } from '../style.ts';
import { serviceProtocol } from './protocol.ts';

/**
 * Service (issue 35): a simulated customer calls; the agent serves them with tools that read and change a copy of
 * their account, under the task's policies; graded by the final state, the values said and the policies' verdicts.
 */
export const serviceStyle: EpisodeStyle = {
  name: 'service',
  taskSchema: ServiceTaskSchema,
  protocol: serviceProtocol,
  grader: async () => (await import('../../graders/service.ts')).serviceGrader as unknown as StyleGrader,
  store: {
    group: 'd.kind',
    metricsShape: { success: 'DOUBLE', state_match: 'DOUBLE', values_said: 'DOUBLE', policies_followed: 'DOUBLE', writes: 'DOUBLE' },
    detailsShape: { kind: 'VARCHAR', outcome: 'VARCHAR' },
    tables: [{
      name: 'service_outcomes',
      ddl: `CREATE TABLE IF NOT EXISTS service_outcomes (
  run_dir VARCHAR NOT NULL,
  task_id VARCHAR NOT NULL,
  repeat INTEGER NOT NULL,
  kind VARCHAR,
  outcome VARCHAR,
  state_match DOUBLE,
  values_said DOUBLE,
  policies_followed DOUBLE,
  writes DOUBLE
);`,
    }],
    fill: [`INSERT INTO service_outcomes SELECT run_dir, task_id, repeat, d.kind, d.outcome, m.state_match, m.values_said, m.policies_followed, m.writes FROM summary WHERE style = 'service'`],
    reports: [{
      // What a service run is graded on, per run and problem kind (with an `all` row): success and its three parts,
      // rates over the graded episodes (values said over the episodes that had values to say).
      name: 'service',
      title: 'Service calls: success, final state, values said, policies followed (per problem kind)',
      sql: (runs) => `
    SELECT r.name AS run, CASE WHEN grouping(o.kind) = 1 THEN 'all' ELSE o.kind END AS kind,
      CAST(count(*) AS INTEGER) AS episodes,
      round(avg(CASE WHEN e.passed THEN 1.0 ELSE 0.0 END), 4) AS success,
      round(avg(o.state_match), 4) AS state_match,
      round(avg(o.values_said), 4) AS values_said,
      round(avg(o.policies_followed), 4) AS policies_followed,
      round(avg(o.writes), 2) AS writes_per_episode
    FROM service_outcomes o JOIN runs r USING (run_dir) JOIN episode_scores e USING (run_dir, task_id, repeat)
    WHERE ${runs('o.run_dir')} AND e.graded
    GROUP BY GROUPING SETS ((r.run_dir, r.name, o.kind), (r.run_dir, r.name))
    ORDER BY run, grouping(o.kind), kind`,
    }],
  },
  viewer: {
    expected(task, details) {
      const { customer, grading, reference } = task as unknown as ServiceTask;
      return {
        panel: 'service',
        rows: [
          { expected: 'outcome', value: `${grading.outcome} (${grading.kind})` },
          { expected: 'customer goal', value: customer.goal },
          ...customer.facts.map((fact) => ({ expected: `customer knows ${fact.name}`, value: `${fact.value}${fact.volunteered ? ' (volunteered)' : ` (when asked: ${fact.askedBy.join(' / ')})`}` })),
          ...reference.actions.map((action, index) => ({ expected: `gold action ${index + 1}`, value: `${action.tool}(${JSON.stringify(action.arguments)})` })),
          ...grading.requiredValues.map((required) => ({ expected: `say ${required.name}`, value: required.value })),
          ...(details.expectedHash === undefined ? [] : [{ expected: 'final state', value: details.expectedHash === details.actualHash ? 'matches the gold actions replayed' : `differs: ${JSON.stringify(details.stateDiff ?? null)}` }]),
          ...(Array.isArray(details.policiesViolated) && details.policiesViolated.length > 0 ? [{ expected: 'policies', value: `violated: ${details.policiesViolated.join(', ')}` }] : []),
        ],
      };
    },
  },
};
