import type { CctuTask } from '../schemas/cctu-task.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import { FOLLOWING_ERROR_MARK } from '../schemas/cctu-markers.ts';
import { meanAndStd } from './mean-std.ts';
import { pythonStrip } from '../schemas/cctu-text.ts';
import { cctuEpisodeScore } from './cctu-score.ts';
import { violationSummary } from '../validator/constraint-status.ts';

// CCTU's scorer, github Junjie-Ye/CCTU, evaluation.py (judge, solve_rate_is_one, compute_if_flags, main) and
// utils/utils.py (answer_verify, build_tool_call_id2name), applied to the conversation as CCTU's harness builds it
// (response_generator.py, sample_process and get_feedback; utils/utils.py, get_feedback_tools).

/** One message of CCTU's conversation (OpenAI shapes). */
export type CctuMessage = Record<string, unknown> & { role: string };

/**
 * The conversation of an episode as CCTU's harness appends it (response_generator.py, sample_process): the sample's
 * `messages`, then per round the assistant message and what get_feedback returns — a tool message per call, in call
 * order (get_feedback_tools: `{role, tool_call_id, content}` for a blocked call, `{role, content, tool_call_id}` for
 * an executed one), or for a rejected answer one user message.
 */
export function cctuMessages(task: CctuTask, events: readonly TrajectoryEvent[]): CctuMessage[] {
  const cctu = task.metadata.cctu as { messages?: CctuMessage[] } | undefined;
  const opening: CctuMessage[] = cctu?.messages ?? [...(task.system ? [{ role: 'system', content: task.system }] : []), { role: 'user', content: task.query }];
  const messages = structuredClone(opening);
  const blocked = new Set<string>();
  for (const event of events) {
    if (event.type === 'model-response') messages.push({ ...event.message });
    else if (event.type === 'tool-call' && event.disposition !== 'executed') blocked.add(event.callId);
    else if (event.type === 'tool-result') {
      messages.push(blocked.has(event.callId) ? { role: 'tool', tool_call_id: event.callId, content: event.content } : { role: 'tool', content: event.content, tool_call_id: event.callId });
    } else if (event.type === 'feedback') messages.push({ role: 'user', content: event.content });
  }
  return messages;
}

/** utils.py, answer_verify: every ", "-separated piece of the golden, lower-cased, commas removed, stripped, is in the output likewise. */
export function answerVerify(output: string, golden: string): boolean {
  const norm = (text: string) => pythonStrip(text.toLowerCase().replace(/,/g, ''));
  const predict = norm(output);
  return golden.split(', ').every((piece) => predict.includes(norm(piece)));
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * evaluation.py, solve_rate_is_one: each tool message, in order, consumes the first golden answer of its tool (by
 * the call id's name, build_tool_call_id2name) that it verifies. Returns, per golden answer (in `unsolved` order),
 * whether it was found.
 */
export function cctuFoundGoldens(messages: readonly CctuMessage[], unsolved: ReadonlyArray<{ tool: string; answer: string }>): boolean[] {
  const found = unsolved.map(() => false);
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls as Array<{ id?: unknown; function?: { name?: unknown } }>) {
      if (typeof call.id === 'string' && call.id !== '' && typeof call.function?.name === 'string' && call.function.name !== '') names.set(call.id, call.function.name);
    }
  }
  for (const message of messages) {
    if (message.role !== 'tool' || typeof message.tool_call_id !== 'string' || message.tool_call_id === '') continue;
    const tool = names.get(message.tool_call_id);
    if (tool === undefined) continue;
    const index = unsolved.findIndex((golden, position) => !found[position] && golden.tool === tool && answerVerify(text(message.content), golden.answer));
    if (index >= 0) found[index] = true;
  }
  return found;
}

/** evaluation.py, compute_if_flags: [an error anywhere, an error after the last assistant message]; a conversation ending on a tool message is both. */
export function cctuErrorFlags(messages: readonly CctuMessage[]): [boolean, boolean] {
  if (messages.at(-1)?.role === 'tool') return [true, true];
  const hasError = (message: CctuMessage) => FOLLOWING_ERROR_MARK.test(text(message.content));
  const any = messages.some(hasError);
  const last = messages.findLastIndex((message) => message.role === 'assistant');
  if (last < 0) return [false, false];
  return [any, messages.slice(last + 1).some(hasError)];
}

/**
 * Grades an episode of a `cctu-official` task with evaluation.py's judge on the conversation CCTU's harness would
 * have written (`cctuMessages`): SR = every golden answer found and no error mark after the last assistant
 * message; PSR = every golden answer found and no error mark anywhere. Beyond CCTU: a validator error or a harness
 * error fails both (CCTU's harness would have written no conversation for it) and is reported.
 */
export function gradeCctuOfficial(task: CctuTask, events: readonly TrajectoryEvent[]): EpisodeScore {
  const end = events.findLast((event) => event.type === 'episode-end');
  const messages = cctuMessages(task, events);
  const goldens = task.grading.subqueries.map(({ tool, answer }) => ({ tool, answer }));
  const found = cctuFoundGoldens(messages, goldens);
  const solved = found.every(Boolean);
  const [anyError, lastError] = cctuErrorFlags(messages);
  const validatorError = violationSummary(task.constraints, events).validatorError;
  const harnessError = end?.type !== 'episode-end' || end.status === 'error';
  return cctuEpisodeScore(task, events, {
    found,
    sr: solved && !lastError && !validatorError && !harnessError,
    psr: solved && !anyError && !validatorError && !harnessError,
    metrics: { feedback_messages: messages.filter((message) => message.role !== 'assistant' && FOLLOWING_ERROR_MARK.test(text(message.content))).length },
    validatorError,
    details: {
      protocol: 'cctu-official',
      structure: task.grading.structure,
      dataSource: task.grading.dataSource ?? task.domain,
      goldens: goldens.map((golden, index) => ({ ...golden, found: found[index] })),
    },
  });
}

/** Python's `f"{x:.2f}"`: the double's exact value rounded half to even (JavaScript's toFixed rounds a tie up). */
function fixed2(value: number): string {
  const [whole, fraction] = Math.abs(value).toFixed(100).split('.') as [string, string];
  const kept = BigInt(whole + fraction.slice(0, 2));
  const rest = fraction.slice(2);
  const beyondHalf = /[1-9]/.test(rest.slice(1));
  const up = rest[0]! > '5' || (rest[0] === '5' && (beyondHalf || kept % 2n === 1n));
  const rounded = kept + (up ? 1n : 0n);
  const digits = rounded.toString().padStart(3, '0');
  return `${value < 0 && rounded > 0n ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** evaluation.py, main: per repeat the rate in %, then `mean ± std` (numpy's std: the population's) of those. */
function meanStdOfPercents(rates: readonly number[]): string {
  const stats = meanAndStd(rates);
  return stats === null ? '-' : `${fixed2(stats.mean)} ± ${fixed2(stats.std)}`;
}

/** evaluation.py, main: the rates of one group, by repeat (`sum(v) / len(v) * 100`). */
function ratesByRepeat(scores: readonly EpisodeScore[], metric: 'sr' | 'psr'): number[] {
  const byRepeat = new Map<number, number[]>();
  for (const score of scores) byRepeat.set(score.repeat, [...(byRepeat.get(score.repeat) ?? []), score.metrics[metric] ?? 0]);
  return [...byRepeat.keys()].sort((a, b) => a - b).map((repeat) => {
    const values = byRepeat.get(repeat)!;
    return (values.reduce((sum, value) => sum + value, 0) / values.length) * 100;
  });
}

/** CCTU's four structures, in its leaderboard's order (README.md's table; evaluation.py groups by data_source). */
const CCTU_DATA_SOURCES = ['Single-Hop', 'Parallel Single-Hop', 'Multi-Hop', 'Parallel Multi-Hop'] as const;

/**
 * CCTU's leaderboard (its README's table): SR and PSR per data source, then Overall, each `mean ± std` over repeats as
 * evaluation.py prints them. A data source outside the four gets its own columns before Overall.
 */
export function summarizeCctuOfficial(scores: readonly EpisodeScore[]): SummaryTable[] {
  const official = scores.filter((score) => score.details.protocol === 'cctu-official');
  if (official.length === 0) return [];
  const present = new Set(official.map((score) => String(score.details.dataSource)));
  const sources = [...CCTU_DATA_SOURCES.filter((source) => present.has(source)), ...[...present].filter((source) => !(CCTU_DATA_SOURCES as readonly string[]).includes(source)).sort()];
  const groups: Array<[string, EpisodeScore[]]> = [...sources.map((source): [string, EpisodeScore[]] => [source, official.filter((score) => String(score.details.dataSource) === source)]), ['Overall', official]];
  const repeats = new Set(official.map((score) => score.repeat)).size;
  return [
    {
      title: `CCTU leaderboard (evaluation.py): SR / PSR in %, mean ± std over ${repeats} repeat${repeats === 1 ? '' : 's'}`,
      columns: ['episodes', ...groups.flatMap(([name]) => [`${name} SR`, `${name} PSR`])],
      rows: [[official.length, ...groups.flatMap(([, group]) => [meanStdOfPercents(ratesByRepeat(group, 'sr')), meanStdOfPercents(ratesByRepeat(group, 'psr'))])]],
    },
  ];
}
