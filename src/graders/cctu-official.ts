import type { CctuTask } from '../schemas/cctu-task.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import { meanStd, rateByRepeat, subqueryMatches } from './cctu.ts';
import { violationSummary } from '../validator/constraint-status.ts';

/** CCTU's feedback form; a message carrying it is error feedback. */
const FEEDBACK_MARK = 'INSTRUCTION FOLLOWING ERROR:';

/** A trajectory as CCTU's scorer reads it: the messages after the opening ones, in order. */
type Message = { role: 'assistant' } | { role: 'tool'; name: string; content: string } | { role: 'user'; content: string };

function messagesOf(events: readonly TrajectoryEvent[]): Message[] {
  return events.flatMap((event): Message[] => {
    if (event.type === 'model-response') return [{ role: 'assistant' }];
    if (event.type === 'tool-result') return [{ role: 'tool', name: event.name, content: event.content }];
    if (event.type === 'feedback') return [{ role: 'user', content: event.content }];
    return [];
  });
}

const isErrorFeedback = (message: Message): boolean => message.role !== 'assistant' && message.content.includes(FEEDBACK_MARK);

/**
 * CCTU's golden-answer rule: each golden answer of a tool must be found in a tool message of that tool
 * (every ", "-separated part, lower-cased with commas removed, a substring of the message, see subqueryMatches),
 * and a tool message serves one golden answer at most. Golden answers are taken in order, each consuming the
 * first unconsumed tool message of its tool that matches it. Returns, per golden answer, whether it was found.
 */
export function goldenAnswersFound(goldens: ReadonlyArray<{ tool: string; answer: string }>, messages: readonly Message[]): boolean[] {
  const consumed = new Set<number>();
  return goldens.map((golden) => {
    const index = messages.findIndex((message, position) => !consumed.has(position) && message.role === 'tool' && message.name === golden.tool && subqueryMatches(golden.answer, message.content));
    if (index < 0) return false;
    consumed.add(index);
    return true;
  });
}

/**
 * Grades an episode of a `cctu-official` task with CCTU's rules: SR = every golden answer found and no error
 * feedback after the last assistant message; PSR = every golden answer found and no error feedback anywhere. A
 * trajectory whose last message is a tool message counts as ending in error feedback (SR = PSR = 0), as does one
 * that ends without a model message. A validator error fails both (its verdicts cannot be trusted) and is reported.
 */
export function gradeCctuOfficial(task: CctuTask, events: readonly TrajectoryEvent[]): EpisodeScore {
  const start = events.find((event) => event.type === 'episode-start');
  const end = events.findLast((event) => event.type === 'episode-end');
  const messages = messagesOf(events);
  const goldens = task.grading.subqueries.map(({ tool, answer }) => ({ tool, answer }));
  const found = goldenAnswersFound(goldens, messages);
  const solved = found.every(Boolean);
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const last = messages.at(-1);
  const endsInFeedback = lastAssistant < 0 || last?.role === 'tool' || messages.slice(lastAssistant + 1).some(isErrorFeedback);
  const anyFeedback = endsInFeedback || messages.some(isErrorFeedback);
  const validatorError = violationSummary(task.constraints, events).validatorError;
  const harnessError = end?.type !== 'episode-end' || end.status === 'error';
  const sr = solved && !endsInFeedback && !validatorError && !harnessError;
  const psr = solved && !anyFeedback && !validatorError && !harnessError;
  return {
    taskId: task.id,
    style: 'cctu',
    repeat: start?.type === 'episode-start' ? start.settings.repeat : 0,
    status: end?.type === 'episode-end' ? end.status : 'error',
    passed: sr,
    metrics: {
      solved: solved ? 1 : 0,
      sr: sr ? 1 : 0,
      psr: psr ? 1 : 0,
      subqueries: goldens.length,
      subqueries_solved: found.filter(Boolean).length,
      feedback_messages: messages.filter(isErrorFeedback).length,
      validator_error: validatorError ? 1 : 0,
    },
    details: {
      protocol: 'cctu-official',
      structure: task.grading.structure,
      dataSource: task.grading.dataSource ?? task.domain,
      goldens: goldens.map((golden, index) => ({ ...golden, found: found[index] })),
      finalAnswer: end?.type === 'episode-end' ? end.finalAnswer : null,
    },
  };
}

/** CCTU's tables: SR and PSR (mean ± std over repeats of the per-repeat averages) per data source and per structure. */
export function summarizeCctuOfficial(scores: readonly EpisodeScore[]): SummaryTable[] {
  const official = scores.filter((score) => score.details.protocol === 'cctu-official');
  if (official.length === 0) return [];
  const repeats = new Set(official.map((score) => score.repeat)).size;
  const table = (key: 'dataSource' | 'structure', title: string): SummaryTable => {
    const names = [...new Set(official.map((score) => String(score.details[key])))].sort();
    const groups: Array<[string, EpisodeScore[]]> = names.map((name) => [name, official.filter((score) => String(score.details[key]) === name)]);
    groups.push(['overall', official]);
    return {
      title: `CCTU official: SR / PSR by ${title} (%, mean ± std over ${repeats} repeat${repeats === 1 ? '' : 's'})`,
      columns: [title, 'episodes', 'SR', 'PSR'],
      rows: groups.map(([name, group]) => [name, group.length, meanStd(rateByRepeat(group, 'sr')), meanStd(rateByRepeat(group, 'psr'))]),
    };
  };
  return [table('dataSource', 'data source'), table('structure', 'structure')];
}
