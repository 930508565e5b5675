import type { CctuTask } from '../schemas/cctu-task.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import { cctuEpisodeScore, meanStd, rateByRepeat, solveSubqueries } from './cctu.ts';
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
 * Grades an episode of a `cctu-official` task with CCTU's rules: each golden answer must be found in a tool message
 * of its tool, one golden answer per tool message (`solveSubqueries`, CCTU's matching); SR = every golden answer
 * found and no error feedback after the last assistant message; PSR = every golden answer found and no error
 * feedback anywhere. A trajectory whose last message is a tool message counts as ending in error feedback
 * (SR = PSR = 0), as does one that ends without a model message. A validator error fails both (its verdicts cannot
 * be trusted) and is reported.
 */
export function gradeCctuOfficial(task: CctuTask, events: readonly TrajectoryEvent[]): EpisodeScore {
  const end = events.findLast((event) => event.type === 'episode-end');
  const messages = messagesOf(events);
  const goldens = task.grading.subqueries.map(({ tool, answer }) => ({ tool, answer }));
  const toolMessages = messages.flatMap((message) => (message.role === 'tool' ? [{ tool: message.name, text: message.content }] : []));
  const found = solveSubqueries(goldens, toolMessages);
  const solved = found.every(Boolean);
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const last = messages.at(-1);
  const endsInFeedback = lastAssistant < 0 || last?.role === 'tool' || messages.slice(lastAssistant + 1).some(isErrorFeedback);
  const anyFeedback = endsInFeedback || messages.some(isErrorFeedback);
  const validatorError = violationSummary(task.constraints, events).validatorError;
  const harnessError = end?.type !== 'episode-end' || end.status === 'error';
  return cctuEpisodeScore(task, events, {
    found,
    sr: solved && !endsInFeedback && !validatorError && !harnessError,
    psr: solved && !anyFeedback && !validatorError && !harnessError,
    metrics: { feedback_messages: messages.filter(isErrorFeedback).length },
    validatorError,
    details: {
      protocol: 'cctu-official',
      structure: task.grading.structure,
      dataSource: task.grading.dataSource ?? task.domain,
      goldens: goldens.map((golden, index) => ({ ...golden, found: found[index] })),
    },
  });
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
