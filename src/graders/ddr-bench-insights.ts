import type { Model } from '../models/model.ts';
import type { DdrBenchJudge } from '../schemas/ddr-bench.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import { pythonFormat } from './python-format.ts';
import { pythonStrOfToolResult } from './python-str.ts';

/** One tool execution of DDR-Bench's agent loop: the agent message that asked for it (0-based among the agent's messages) and the environment's reply. */
interface ToolExecution {
  messageIndex: number;
  assistant: string;
  environment: string;
}

/**
 * The pairs DDR-Bench writes an insight for (agent/data_agent.py, `_environment_turn` → `_generate_and_save_insight`):
 * after every executed tool call, the agent message that made it (its text content, without the call) and the
 * environment message f"Tool execution result: {result}". A call our gate blocked or the protocol skipped ran no tool:
 * DDR-Bench's loop, too, executes only the first call of a message and writes nothing for a malformed one.
 */
function toolExecutions(events: readonly TrajectoryEvent[]): ToolExecution[] {
  const executions: ToolExecution[] = [];
  const callers = new Map<string, number>();
  const contents: string[] = [];
  for (const event of events) {
    if (event.type === 'model-response') contents.push(event.message.content ?? '');
    else if (event.type === 'tool-call' && event.disposition === 'executed') callers.set(event.callId, contents.length - 1);
    else if (event.type === 'tool-result') {
      const messageIndex = callers.get(event.callId);
      if (messageIndex === undefined || messageIndex < 0) continue;
      executions.push({ messageIndex, assistant: contents[messageIndex]!, environment: `Tool execution result: ${pythonStrOfToolResult(event.content)}` });
    }
  }
  return executions;
}

/** agent/data_agent.py `_generate_and_save_insight`: `generate_response(messages, max_tokens=512)`. */
const INSIGHT_MAX_TOKENS = 512;

/** One message-wise insight, and the agent message whose tool call it was written from. */
export interface DdrBenchInsight {
  text: string;
  messageIndex: number;
}

/**
 * The message-wise insights list of one entity, as DDR-Bench's agent writes it and its evaluator reads it back:
 * one insight call per tool execution (the checkout's `get_insight_system_prompt()` and `build_insight_prompt(…)`,
 * 512 output tokens), a call that raised leaving no row (data_agent.py catches it and saves nothing); then
 * evaluate/base_evaluator.py `load_logs_data`: rows whose insight contains "NO INSIGHT" in any case are dropped, the
 * rest stripped and the empty ones dropped. DDR-Bench writes them with the agent's own model during the run; here the
 * judge writes them at grading time (the one difference: a trajectory keeps no second model's output).
 */
export async function ddrBenchInsights(events: readonly TrajectoryEvent[], insight: NonNullable<DdrBenchJudge['insight']>, judge: Model): Promise<{ insights: DdrBenchInsight[]; failed: number }> {
  const insights: DdrBenchInsight[] = [];
  let failed = 0;
  for (const execution of toolExecutions(events)) {
    let text: string;
    try {
      const user = pythonFormat(insight.user, { assistant_content: execution.assistant, user_content: execution.environment, task: insight.task });
      const response = await judge.respond({
        messages: [{ role: 'system', content: insight.system }, { role: 'user', content: user }],
        tools: [],
        generation: { maxOutputTokens: INSIGHT_MAX_TOKENS },
      });
      text = response.message.content ?? '';
    } catch {
      failed += 1;
      continue;
    }
    if (/no insight/i.test(text)) continue;
    const stripped = text.trim();
    if (stripped !== '') insights.push({ text: stripped, messageIndex: execution.messageIndex });
  }
  return { insights, failed };
}
