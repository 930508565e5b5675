import type { GenerationOptions, Model } from '../models/model.ts';
import type { ChecklistItem, ItemVerdict } from '../schemas/checklist.ts';
import type { DdrBenchJudge } from '../schemas/ddr-bench.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import { ddrBenchInsights, type DdrBenchInsight } from './ddr-bench-insights.ts';
import { pythonFormat } from './python-format.ts';

/**
 * The chat-wise context DDR-Bench's evaluator reads for an entity: the agent's last message containing "FINISH"
 * (whole, prefix included), else its last message (agent/data_agent.py, `_get_final_agent_summary`, saved as
 * session_stats `final_summary`), cut before the first line containing "- INFO -" (evaluate/base_evaluator.py,
 * `clean_final_summary`). Returns the context and the index of its message among the agent's messages.
 */
export function chatWiseContext(events: readonly TrajectoryEvent[]): { context: string; index: number } | null {
  const messages = events.flatMap((event) => (event.type === 'model-response' ? [(event.message.content ?? '').trim()] : []));
  let index = messages.findLastIndex((content) => content.includes('FINISH'));
  if (index < 0) index = messages.findLastIndex((content) => content !== '');
  if (index < 0) return null;
  const lines = messages[index]!.split('\n');
  const cut = lines.findIndex((line) => line.includes('- INFO -'));
  const context = (cut < 0 ? lines : lines.slice(0, cut)).join('\n').trimEnd();
  return context === '' ? null : { context, index };
}

/**
 * DDR-Bench's output limit and temperature for one judge call (evaluate/base_evaluator.py, `call_llm_api(messages,
 * max_tokens, temperature=0.5)`): `maxTokens` is what the caller passes — 2048 for the context-quality and message-wise
 * calls (unified_evaluator.py, `evaluate_qa_with_context`, `evaluate_qa_with_message_list`), the default 4096 for
 * GLOBEM's accuracy check (`_parse_qa_accuracy_result`). The temperature is the route's: `call_openai_api` sends 0.5;
 * `call_vllm_api` (an OpenAI-compatible server) sends its own 0.6 whatever it is given; `call_azure_openai_api` sends
 * none (an Azure judge has no spec here); every other provider name goes to `call_openai_api`, so an Anthropic judge
 * gets 0.5. Playback judges (scripted, replay) generate nothing and ignore both.
 */
export function ddrBenchGeneration(judgeSpec: string, maxTokens: number): GenerationOptions {
  const temperature = judgeSpec.startsWith('openai-compatible:') ? 0.6 : 0.5;
  return { maxOutputTokens: maxTokens, temperature };
}

/** unified_evaluator.py: `call_llm_api(messages, max_tokens=2048)` for the chat-wise and message-wise calls. */
const CONTEXT_MAX_TOKENS = 2048;
/** base_evaluator.py `call_llm_api`'s default, used by `_parse_qa_accuracy_result`'s accuracy check. */
const ACCURACY_MAX_TOKENS = 4096;

/**
 * DDR-Bench's `call_llm_api` (evaluate/base_evaluator.py): up to `max_retries` attempts (config.yaml
 * evaluation.max_retries: 5), an empty reply or an error counting as a failed attempt; after the last, "" (the
 * evaluator then records API_FAILED). Its backoff sleeps are left to our providers' own retries.
 */
const DDR_BENCH_ATTEMPTS = 5;
async function callJudge(judge: Model, system: string, user: string, maxTokens: number): Promise<string> {
  const generation = ddrBenchGeneration(judge.spec, maxTokens);
  for (let attempt = 0; attempt < DDR_BENCH_ATTEMPTS; attempt += 1) {
    try {
      const response = await judge.respond({ messages: [{ role: 'system', content: system }, { role: 'user', content: user }], tools: [], generation });
      const content = (response.message.content ?? '').trim();
      if (content) return content;
    } catch {
      // a failed attempt, as DDR-Bench counts one
    }
  }
  return '';
}

type Outcome = ItemVerdict['verdict'];

/** What DDR-Bench's parsers make of a reply: its label, the message indices it names, a reason. */
interface Judged {
  label: string;
  supporting: unknown[];
  contradicting: unknown[];
  reason: string;
}

/**
 * MIMIC and 10-K (evaluate/unified_evaluator.py, `_parse_context_quality_result`): the reply with ```json fences
 * removed is parsed as JSON and its `context_quality` (default INSUFFICIENT_INFO) is the label, with its
 * `supporting_message_indices` and `contradicting_message_indices` (default []); a reply that is not JSON falls back
 * to a substring test in DDR-Bench's order — "CORRECT_INFO" first, so a reply saying INCORRECT_INFO also counts as
 * correct there (DDR-Bench's own behaviour, kept so scores match its evaluator) — with no indices.
 */
function contextQuality(reply: string): Judged | null {
  const text = reply.replaceAll('```json', '').replaceAll('```', '');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const upper = text.toUpperCase();
    return { label: upper.includes('CORRECT_INFO') ? 'CORRECT_INFO' : 'INSUFFICIENT_INFO', supporting: [], contradicting: [], reason: `reply not JSON, read by substring: ${text.slice(0, 200)}` };
  }
  // A JSON value that is not an object makes DDR-Bench's `data.get` raise AttributeError, which nothing catches.
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const record = data as Record<string, unknown>;
  const label = 'context_quality' in record ? record.context_quality : 'INSUFFICIENT_INFO';
  const list = (key: string): unknown[] => (key in record ? (Array.isArray(record[key]) ? record[key] : [record[key]]) : []);
  return {
    label: typeof label === 'string' ? label : JSON.stringify(label),
    supporting: list('supporting_message_indices'),
    contradicting: list('contradicting_message_indices'),
    reason: typeof record.reasoning === 'string' ? record.reasoning : '',
  };
}

/** DDR-Bench's label as one of our verdicts (its summary counts only these three; any other label is counted in none). */
function outcomeOf(label: string): Outcome {
  if (label === 'CORRECT_INFO' || label === 'CORRECT') return 'CORRECT_INFO';
  if (label === 'INCORRECT_INFO' || label === 'INCORRECT') return 'INCORRECT_INFO';
  if (label === 'API_FAILED') return 'UNJUDGED';
  return 'INSUFFICIENT_INFO';
}

/**
 * The message indices a GLOBEM answer names (`_parse_qa_accuracy_result`): the list after "Used message(s):" — split
 * on commas, the parts that are digits once stripped — else every "[Message N]" it cites.
 */
function usedMessages(answer: string): number[] {
  const used = /[Uu]sed messages?:?\s*([\d,\s]+)/.exec(answer);
  if (used) return used[1]!.split(',').map((part) => part.trim()).filter((part) => /^\d+$/.test(part)).map(Number);
  return [...answer.matchAll(/\[Message (\d+)\]/g)].map((match) => Number(match[1]));
}

/**
 * GLOBEM (evaluate/unified_evaluator.py, `_parse_qa_accuracy_result`): the judge's reply is its own answer; one
 * containing "NO IDEA" is NO_IDEA, else a second call with the accuracy prompts decides: exactly "YES" (trimmed,
 * upper-cased) is CORRECT, anything else — a failed call included — INCORRECT. The indices the answer names are
 * supporting when it is correct, contradicting when not (and supporting for NO_IDEA).
 */
async function qaAccuracy(judge: Model, settings: DdrBenchJudge, item: ChecklistItem, answer: string): Promise<Judged> {
  const indices = usedMessages(answer);
  if (answer.toUpperCase().includes('NO IDEA')) return { label: 'NO_IDEA', supporting: indices, contradicting: [], reason: answer.slice(0, 200) };
  const check = await callJudge(judge, settings.prompts.accuracy_system!, pythonFormat(settings.prompts.accuracy_user!, { ground_truth: String(item.answer), model_answer: answer }), ACCURACY_MAX_TOKENS);
  const correct = check.trim().toUpperCase() === 'YES';
  return { label: correct ? 'CORRECT' : 'INCORRECT', supporting: correct ? indices : [], contradicting: correct ? [] : indices, reason: `answer: ${answer.slice(0, 160)} | check: ${check.slice(0, 40)}` };
}

/** One QA pair judged with one prompt, as DDR-Bench's evaluate_qa_with_context / evaluate_qa_with_message_list do after building it. */
async function judgeItem(judge: Model, settings: DdrBenchJudge, item: ChecklistItem, system: string, user: string): Promise<Judged | null> {
  const reply = await callJudge(judge, system, user, CONTEXT_MAX_TOKENS);
  if (reply === '') return { label: 'API_FAILED', supporting: [], contradicting: [], reason: 'Failed to get evaluation from API' };
  return settings.use_qa_accuracy ? qaAccuracy(judge, settings, item, reply) : contextQuality(reply);
}

function verdictOf(item: ChecklistItem, judged: Judged | null, reply: (judged: Judged) => { supporting: number[]; contradicting: number[]; reason: string }): ItemVerdict {
  if (judged === null) return { itemId: item.id, verdict: 'UNJUDGED', supporting: [], contradicting: [], reason: "ddr-bench: the reply is JSON but not an object (DDR-Bench's evaluator stops there)" };
  const shown = reply(judged);
  return { itemId: item.id, verdict: outcomeOf(judged.label), supporting: shown.supporting, contradicting: shown.contradicting, reason: `ddr-bench ${judged.label}${shown.reason ? `: ${shown.reason}` : ''}` };
}

/**
 * DDR-Bench's message-wise evaluation of one QA pair (evaluate/unified_evaluator.py, `evaluate_qa_with_message_list`):
 * the insights numbered "[Message {idx}]: {insight}\n\n", one after another, in the scenario's message prompts. The
 * indices the judge names are insight indices; each verdict carries the agent messages those insights were written
 * from (the store's supporting / contradicting columns are agent messages), and the judge's own indices in its reason.
 */
async function messageWiseVerdict(judge: Model, settings: DdrBenchJudge, item: ChecklistItem, insights: readonly DdrBenchInsight[]): Promise<{ verdict: ItemVerdict; reach: MessageReach }> {
  const numberedContext = insights.map((insight, index) => `[Message ${index}]: ${insight.text}\n\n`).join('');
  const user = pythonFormat(settings.prompts.message_user!, { numbered_context: numberedContext, question: item.question, ground_truth: String(item.answer) });
  const judged = await judgeItem(judge, settings, item, settings.prompts.message_system!, user);
  const messagesOf = (indices: unknown[]) => [...new Set(indices.flatMap((index) => (typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < insights.length ? [insights[index]!.messageIndex] : [])))].sort((a, b) => a - b);
  const verdict = verdictOf(item, judged, (found) => ({
    supporting: messagesOf(found.supporting),
    contradicting: messagesOf(found.contradicting),
    reason: `${found.supporting.length + found.contradicting.length > 0 ? `messages ${JSON.stringify(found.supporting)} / ${JSON.stringify(found.contradicting)}; ` : ''}${found.reason}`,
  }));
  return { verdict, reach: reachOf(verdict.verdict, judged) };
}

/**
 * Where DDR-Bench's top-k analysis counts a message-wise verdict (evaluate/base_evaluator.py,
 * `calculate_cumulative_message_stats`): a CORRECT one as correct at every threshold k above the largest supporting
 * index the judge named (`max(supporting_indices) < threshold`), an INCORRECT one likewise with its contradicting
 * indices, and anything else — or a verdict naming no index — as insufficient at every k. `correct` / `incorrect` is
 * that largest index + 1, the smallest k that counts it; null where it never is. The judge's own insight indices,
 * unmapped: an index beyond the list counts as DDR-Bench counts it (non-numbers, on which its max() would fail, are
 * left out).
 */
export interface MessageReach {
  correct: number | null;
  incorrect: number | null;
}
function reachOf(verdict: Outcome, judged: Judged | null): MessageReach {
  const from = (indices: unknown[] | undefined) => {
    const numbers = (indices ?? []).filter((index): index is number => typeof index === 'number' && Number.isFinite(index));
    return numbers.length === 0 ? null : Math.max(...numbers) + 1;
  };
  return { correct: verdict === 'CORRECT_INFO' ? from(judged?.supporting) : null, incorrect: verdict === 'INCORRECT_INFO' ? from(judged?.contradicting) : null };
}

/** calculate_cumulative_message_stats' thresholds. */
export const DDR_BENCH_THRESHOLDS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 100] as const;

/** What DDR-Bench's evaluator makes of one entity, both contexts (`evaluate_entity`). */
export interface DdrBenchJudgement {
  /** Chat-wise verdicts (over the final summary); null when there is none. */
  chat: ItemVerdict[] | null;
  /** Message-wise verdicts (over the insights list); null when the list is empty or the task has no message prompts. */
  message: ItemVerdict[] | null;
  /** Per message-wise verdict, where DDR-Bench's top-k analysis counts it. */
  messageReach: MessageReach[] | null;
  /** The insights list (null: the task was imported without the message-wise prompts), and the insight calls that raised. */
  insights: DdrBenchInsight[] | null;
  insightFailures: number;
}

/**
 * DDR-Bench's evaluation of one entity (evaluate/unified_evaluator.py, `evaluate_entity`): message-wise for every QA
 * pair when the insights list is not empty, then chat-wise for every pair when there is a final summary, each a list
 * of verdicts carrying DDR-Bench's label in its reason. A judge that never answered is API_FAILED (UNJUDGED here;
 * DDR-Bench keeps it in the item count, see `ddrBenchAccuracy`). An entity with neither context DDR-Bench leaves out
 * (`run_evaluation`: "has no valid context"): both null.
 */
export async function judgeDdrBench(checklist: readonly ChecklistItem[], events: readonly TrajectoryEvent[], settings: DdrBenchJudge, judge: Model): Promise<DdrBenchJudgement> {
  const messageWise = settings.insight !== undefined && settings.prompts.message_system !== undefined && settings.prompts.message_user !== undefined;
  const written = messageWise ? await ddrBenchInsights(events, settings.insight!, judge) : null;
  const insights = written?.insights ?? null;
  let message: ItemVerdict[] | null = null;
  let messageReach: MessageReach[] | null = null;
  if (insights !== null && insights.length > 0) {
    message = [];
    messageReach = [];
    for (const item of checklist) {
      const judged = await messageWiseVerdict(judge, settings, item, insights);
      message.push(judged.verdict);
      messageReach.push(judged.reach);
    }
  }
  const chat = chatWiseContext(events);
  let chatVerdicts: ItemVerdict[] | null = null;
  if (chat !== null) {
    chatVerdicts = [];
    for (const item of checklist) {
      const judged = await judgeItem(judge, settings, item, settings.prompts.chat_system, pythonFormat(settings.prompts.chat_user, { context: chat.context, question: item.question, ground_truth: String(item.answer) }));
      chatVerdicts.push(verdictOf(item, judged, (found) => {
        const verdict = outcomeOf(found.label);
        // The chat-wise context is one message, the final summary: it is the evidence either way.
        return { supporting: verdict === 'CORRECT_INFO' ? [chat.index] : [], contradicting: verdict === 'INCORRECT_INFO' ? [chat.index] : [], reason: found.reason };
      }));
    }
  }
  return { chat: chatVerdicts, message, messageReach, insights, insightFailures: written?.failed ?? 0 };
}

/**
 * DDR-Bench's score of one entity in one context (evaluate/base_evaluator.py, `calculate_summary_stats`): correct over
 * every QA pair, API failures included in the count (`correct_percentage`), as a fraction. Its overall
 * `average_correct_percentage` is the mean of this over entities, and `overall_correct_percentage` the pooled share
 * (`calculate_overall_stats`).
 */
export function ddrBenchAccuracy(verdicts: readonly ItemVerdict[]): number {
  return verdicts.length === 0 ? 0 : verdicts.filter((verdict) => verdict.verdict === 'CORRECT_INFO').length / verdicts.length;
}
