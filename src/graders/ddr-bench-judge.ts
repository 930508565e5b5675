import type { Model } from '../models/model.ts';
import type { ChecklistItem, ItemVerdict } from '../schemas/checklist.ts';
import type { DdrBenchJudge } from '../schemas/ddr-bench.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';

/**
 * Python's `str.format` with named fields only, as DDR-Bench fills its prompt templates (evaluate/unified_evaluator.py,
 * `self.prompts["chat_user"].format(context=…, question=…, ground_truth=…)`): `{{` and `}}` are literal braces,
 * `{name}` is the field; a field not given, a conversion or a format spec, or a lone brace throws (Python raises
 * KeyError / ValueError there too), so a template this does not fill as Python would is refused, never half-filled.
 */
export function pythonFormat(template: string, fields: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}|[{}]/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    if (name === undefined) throw new Error(`a lone "${match}" (Python's str.format raises ValueError)`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`the field {${name}} is not a plain name`);
    const value = fields[name];
    if (value === undefined) throw new Error(`the field {${name}} is not one DDR-Bench fills (${Object.keys(fields).join(', ')})`);
    return value;
  });
}

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
 * DDR-Bench's `call_llm_api` (evaluate/base_evaluator.py): up to `max_retries` attempts (config.yaml
 * evaluation.max_retries: 5), an empty reply or an error counting as a failed attempt; after the last, "" (the
 * evaluator then records API_FAILED). Its backoff sleeps are left to our providers' own retries.
 */
const DDR_BENCH_ATTEMPTS = 5;
async function callJudge(judge: Model, system: string, user: string): Promise<string> {
  for (let attempt = 0; attempt < DDR_BENCH_ATTEMPTS; attempt += 1) {
    try {
      const response = await judge.respond({ messages: [{ role: 'system', content: system }, { role: 'user', content: user }], tools: [] });
      const content = (response.message.content ?? '').trim();
      if (content) return content;
    } catch {
      // a failed attempt, as DDR-Bench counts one
    }
  }
  return '';
}

type Outcome = ItemVerdict['verdict'];

/**
 * MIMIC and 10-K (evaluate/unified_evaluator.py, `_parse_context_quality_result`): the reply with ```json fences
 * removed is parsed as JSON and its `context_quality` (default INSUFFICIENT_INFO) is the label; a reply that is not
 * JSON falls back to a substring test in DDR-Bench's order — "CORRECT_INFO" first, so a reply saying INCORRECT_INFO
 * also counts as correct there (DDR-Bench's own behaviour, kept so scores match its evaluator).
 */
function contextQuality(reply: string): { label: string; reason: string } | null {
  const text = reply.replaceAll('```json', '').replaceAll('```', '');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const upper = text.toUpperCase();
    return { label: upper.includes('CORRECT_INFO') ? 'CORRECT_INFO' : 'INSUFFICIENT_INFO', reason: `reply not JSON, read by substring: ${text.slice(0, 200)}` };
  }
  // A JSON value that is not an object makes DDR-Bench's `data.get` raise AttributeError, which nothing catches.
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const record = data as Record<string, unknown>;
  const label = 'context_quality' in record ? record.context_quality : 'INSUFFICIENT_INFO';
  return { label: typeof label === 'string' ? label : JSON.stringify(label), reason: typeof record.reasoning === 'string' ? record.reasoning : '' };
}

/** DDR-Bench's label as one of our verdicts (its summary counts only these three; any other label is counted in none). */
function outcomeOf(label: string): Outcome {
  if (label === 'CORRECT_INFO' || label === 'CORRECT') return 'CORRECT_INFO';
  if (label === 'INCORRECT_INFO' || label === 'INCORRECT') return 'INCORRECT_INFO';
  if (label === 'API_FAILED') return 'UNJUDGED';
  return 'INSUFFICIENT_INFO';
}

/**
 * GLOBEM (evaluate/unified_evaluator.py, `_parse_qa_accuracy_result`): the judge's reply is its own answer; one
 * containing "NO IDEA" is NO_IDEA, else a second call with the accuracy prompts decides: exactly "YES" (trimmed,
 * upper-cased) is CORRECT, anything else — a failed call included — INCORRECT.
 */
async function qaAccuracy(judge: Model, settings: DdrBenchJudge, item: ChecklistItem, answer: string): Promise<{ label: string; reason: string }> {
  if (answer.toUpperCase().includes('NO IDEA')) return { label: 'NO_IDEA', reason: answer.slice(0, 200) };
  const check = await callJudge(judge, settings.prompts.accuracy_system!, pythonFormat(settings.prompts.accuracy_user!, { ground_truth: String(item.answer), model_answer: answer }));
  return { label: check.trim().toUpperCase() === 'YES' ? 'CORRECT' : 'INCORRECT', reason: `answer: ${answer.slice(0, 160)} | check: ${check.slice(0, 40)}` };
}

/**
 * DDR-Bench's chat-wise evaluation of one entity (evaluate/unified_evaluator.py, `evaluate_qa_with_context` for every
 * QA pair): the scenario's chat prompts over the final summary, one verdict per item, each carrying DDR-Bench's label
 * in its reason. A judge that never answered is API_FAILED (UNJUDGED here; DDR-Bench keeps it in the item count, see
 * `ddrBenchAccuracy`). Without a context DDR-Bench leaves the entity out ("has no valid context"): null.
 * The message-wise evaluation (per-insight contexts DDR-Bench's agent writes with a second model at run time) is not
 * built.
 */
export async function judgeDdrBench(checklist: readonly ChecklistItem[], events: readonly TrajectoryEvent[], settings: DdrBenchJudge, judge: Model): Promise<ItemVerdict[] | null> {
  const chat = chatWiseContext(events);
  if (chat === null) return null;
  const verdicts: ItemVerdict[] = [];
  for (const item of checklist) {
    const reply = await callJudge(judge, settings.prompts.chat_system, pythonFormat(settings.prompts.chat_user, { context: chat.context, question: item.question, ground_truth: String(item.answer) }));
    let judged: { label: string; reason: string } | null;
    if (reply === '') judged = { label: 'API_FAILED', reason: 'Failed to get evaluation from API' };
    else judged = settings.use_qa_accuracy ? await qaAccuracy(judge, settings, item, reply) : contextQuality(reply);
    if (judged === null) {
      verdicts.push({ itemId: item.id, verdict: 'UNJUDGED', supporting: [], contradicting: [], reason: `ddr-bench: the reply is JSON but not an object (DDR-Bench's evaluator stops there): ${reply.slice(0, 160)}` });
      continue;
    }
    const verdict = outcomeOf(judged.label);
    verdicts.push({
      itemId: item.id,
      verdict,
      // The chat-wise context is one message, the final summary: it is the evidence either way.
      supporting: verdict === 'CORRECT_INFO' ? [chat.index] : [],
      contradicting: verdict === 'INCORRECT_INFO' ? [chat.index] : [],
      reason: `ddr-bench ${judged.label}${judged.reason ? `: ${judged.reason}` : ''}`,
    });
  }
  return verdicts;
}

/**
 * DDR-Bench's score of one entity (evaluate/base_evaluator.py, `calculate_summary_stats`): correct over every QA pair,
 * API failures included in the count (`correct_percentage`), as a fraction. Its overall `average_correct_percentage`
 * is the mean of this over entities, and `overall_correct_percentage` the pooled share (`calculate_overall_stats`).
 */
export function ddrBenchAccuracy(verdicts: readonly ItemVerdict[]): number {
  return verdicts.length === 0 ? 0 : verdicts.filter((verdict) => verdict.verdict === 'CORRECT_INFO').length / verdicts.length;
}
