import picomatch from 'picomatch';
import { SeededRandom } from '../../databases/seeded-random.ts';
import { nearestName } from '../nearest-name.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { LoadedTask } from './load-task.ts';

/** How to pick tasks out of a suite: `--tasks`, `--sample` with `--seed`, `--limit`. */
export interface TaskSelection {
  /** Task ids and globs over ids (full glob syntax: `cctu-mh-00[1-3]`, `cctu-{sh,mh}-*`, `!(*-p*)`), comma-separated or as a list. */
  tasks?: string | readonly string[];
  /** A seeded random sample of this many tasks (kept in suite order). */
  sample?: number;
  seed?: number;
  /** At most the first N tasks (after `tasks` and `sample`). */
  limit?: number;
}

/**
 * The comma-separated patterns of `--tasks`, trimmed, empty ones dropped. A comma inside `{…}`, `[…]` or `(…)` is
 * part of its glob (`cctu-{sh,mh}-*` is one pattern).
 */
export function taskPatterns(tasks: string | readonly string[]): string[] {
  const patterns: string[] = [];
  for (const text of typeof tasks === 'string' ? [tasks] : tasks) {
    let depth = 0;
    let current = '';
    for (const char of text) {
      if (char === ',' && depth === 0) {
        patterns.push(current);
        current = '';
        continue;
      }
      if ('{[('.includes(char)) depth += 1;
      else if ('}])'.includes(char) && depth > 0) depth -= 1;
      current += char;
    }
    patterns.push(current);
  }
  return patterns.map((part) => part.trim()).filter(Boolean);
}

/**
 * Selects tasks, in suite order: those whose id matches one of the patterns (each pattern must match at least one
 * task, so a typo fails with `not-found` naming it and the nearest id), then a seeded sample, then the first `limit`.
 */
export function selectTasks(tasks: readonly LoadedTask[], selection: TaskSelection): LoadedTask[] {
  let selected = [...tasks];
  if (selection.tasks !== undefined) {
    const patterns = taskPatterns(selection.tasks);
    if (patterns.length === 0) throw new SandboxError('invalid-input', '--tasks names no task');
    const matchers = patterns.map((pattern) => ({ pattern, matches: picomatch(pattern, { dot: true }) }));
    for (const { pattern, matches } of matchers) {
      if (tasks.some(({ task }) => matches(task.id))) continue;
      const nearest = nearestName(pattern, tasks.map(({ task }) => task.id));
      throw new SandboxError('not-found', `--tasks: no task id matches "${pattern}"${nearest ? ` (did you mean "${nearest}"?)` : ''}`);
    }
    selected = selected.filter(({ task }) => matchers.some(({ matches }) => matches(task.id)));
  }
  if (selection.sample !== undefined && selection.sample < selected.length) {
    const chosen = new Set(new SeededRandom(selection.seed ?? 0).sample(selected, selection.sample));
    selected = selected.filter((loaded) => chosen.has(loaded));
  }
  if (selection.limit !== undefined) selected = selected.slice(0, selection.limit);
  return selected;
}
