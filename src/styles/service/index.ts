import type { StyleGrader } from '../../graders/style-grader.ts';
import { SandboxError } from '../../sandbox-error.ts';
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
  // The state grader (final state against the gold actions replayed) is the world side's, src/graders/service.ts: not merged yet.
  grader: async (): Promise<StyleGrader> => {
    throw new SandboxError('not-found', 'service episodes have no grader yet (src/graders/service.ts, issue 35: the final-state grader is being built)');
  },
  viewer: {
    expected(task) {
      const { customer, grading, reference } = task as unknown as ServiceTask;
      return {
        panel: 'service',
        rows: [
          { expected: 'outcome', value: `${grading.outcome} (${grading.kind})` },
          { expected: 'customer goal', value: customer.goal },
          ...customer.facts.map((fact) => ({ expected: `customer knows ${fact.name}`, value: `${fact.value}${fact.volunteered ? ' (volunteered)' : ` (when asked: ${fact.askedBy.join(' / ')})`}` })),
          ...reference.actions.map((action, index) => ({ expected: `gold action ${index + 1}`, value: `${action.tool}(${JSON.stringify(action.arguments)})` })),
          ...grading.requiredValues.map((required) => ({ expected: `say ${required.name}`, value: required.value })),
        ],
      };
    },
  },
};
