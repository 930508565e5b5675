import { z } from 'zod';

/** DDR-Bench's scenarios (thinkwee/DDR_Bench run_evaluation.py, `--scenario` choices). */
export const DDR_BENCH_SCENARIOS = ['10k', 'mimic', 'globem'] as const;
export type DdrBenchScenario = (typeof DDR_BENCH_SCENARIOS)[number];

/**
 * How a DDR task's items are judged when a judge grades them: `ours` (src/graders/checklist.ts judgeChecklist: the
 * verified answer with its tolerance, strict verdict JSON, unusable replies asked again) or `ddr-bench` (DDR-Bench's
 * own evaluator: its prompts, its reply schema and its scoring per scenario, src/graders/ddr-bench-judge.ts).
 */
export const JUDGE_PROTOCOLS = ['ours', 'ddr-bench'] as const;

/**
 * DDR-Bench's judge, as `sandbox import ddr-bench` read it from the user's checkout of DDR_Bench (the prompts are
 * DDR-Bench's text, kept in the imported task files, never in this repository): the chat-wise prompts of
 * evaluate/prompts.py get_prompts(scenario), and for GLOBEM (`use_qa_accuracy`) the accuracy-check prompts.
 */
export const DdrBenchJudgeSchema = z.object({
  scenario: z.enum(DDR_BENCH_SCENARIOS),
  /** get_prompts(scenario)["use_qa_accuracy"]: GLOBEM's answer-then-check protocol instead of context quality. */
  use_qa_accuracy: z.boolean(),
  prompts: z.object({
    chat_system: z.string().min(1),
    chat_user: z.string().min(1),
    accuracy_system: z.string().min(1).optional(),
    accuracy_user: z.string().min(1).optional(),
    /**
     * The message-wise prompts (get_prompts(scenario)["message_system"], ["message_user"], filled with
     * `numbered_context`, `question`, `ground_truth` by evaluate_qa_with_message_list). Absent in tasks imported
     * before the message-wise evaluation was built: such a task is judged chat-wise only (re-import it).
     */
    message_system: z.string().min(1).optional(),
    message_user: z.string().min(1).optional(),
  }),
  /**
   * How DDR-Bench's agent writes the message-wise insights (agent/prompt_manager.py): `get_insight_system_prompt()`,
   * `build_insight_prompt(…)` as a str.format template of {assistant_content}, {user_content}, {task}, and the task
   * sentence of this entity it is filled with (the session's task, run_agent.py). Absent with the message prompts.
   */
  insight: z.object({ system: z.string().min(1), user: z.string().min(1), task: z.string().min(1) }).optional(),
  /** Where the prompts were read: the checkout and its commit, when it is a git checkout. */
  source: z.string(),
}).refine((judge) => !judge.use_qa_accuracy || (judge.prompts.accuracy_system !== undefined && judge.prompts.accuracy_user !== undefined), {
  message: 'use_qa_accuracy needs the accuracy_system and accuracy_user prompts',
  path: ['prompts'],
});
export type DdrBenchJudge = z.infer<typeof DdrBenchJudgeSchema>;
