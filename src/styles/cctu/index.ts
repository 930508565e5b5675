import type { StyleGrader } from '../../graders/style-grader.ts';
import { CctuTaskSchema, type CctuTask } from '../../schemas/cctu-task.ts';
import type { EpisodeStyle } from '../style.ts';
import { cctuProtocol } from './protocol.ts';

/** CCTU: constrained tool use over mock tools, scored by solved subqueries (SR/PSR) and constraint violations. */
export const cctuStyle: EpisodeStyle = {
  name: 'cctu',
  taskSchema: CctuTaskSchema,
  protocol: cctuProtocol,
  grader: async () => (await import('../../graders/cctu.ts')).cctuGrader as StyleGrader,
  store: { group: 'd.structure', detailsShape: { structure: 'VARCHAR' } },
  viewer: {
    // cctu: details.subqueries (solved, seq); cctu-official: details.goldens (found), in the task's order
    expected(task, details) {
      const graded = (details.subqueries ?? details.goldens ?? []) as Array<{ solved?: boolean; found?: boolean; seq?: number | null }>;
      return {
        panel: 'golden-answers',
        subqueries: (task as CctuTask).grading.subqueries.map((subquery, index) => {
          const verdict = graded[index];
          return { query: subquery.query, tool: subquery.tool, answer: subquery.answer, found: verdict ? (verdict.solved ?? verdict.found ?? null) : null, seq: verdict?.seq ?? null };
        }),
      };
    },
  },
  // loaded when a suite has played: it reads CCTU's conversation through the official grader
  suiteOutputs: async (...args) => (await import('./response-file.ts')).writeCctuResponseFile(...args),
};
