import type { EventOf } from '../schemas/event.ts';
import type { Task } from '../schemas/task.ts';
import { resolveRecordedTaskPath } from './load-task.ts';
import { taskSha256 } from './run-identity.ts';
import { COMPONENT_FOLDERS, packageVersions, type Component } from './versions.ts';

/**
 * What no longer matches between a trajectory and this checkout, for `sandbox grade` to warn about: the task file's
 * content (sha-256) and the versions of the scoring components (constraints, validator, grader). Each entry is one
 * line naming which; empty when the score is reproducible from what was recorded.
 */
export function recordingMismatches(start: EventOf<'episode-start'>, task: Task): string[] {
  const mismatches: string[] = [];
  const what = start.taskPath ?? `task ${start.taskId}`;
  if (start.taskSha256 === undefined) mismatches.push(`${what}: the trajectory records no task hash (recorded by an older sandbox)`);
  else if (start.taskSha256 !== taskSha256(task, start.taskPath ? resolveRecordedTaskPath(start.taskPath) : undefined)) {
    mismatches.push(`${what}: the task file changed since the trajectory was recorded`);
  }
  const now = packageVersions();
  for (const component of Object.keys(COMPONENT_FOLDERS) as Component[]) {
    const recorded = start.versions[component];
    if (recorded === undefined) mismatches.push(`${component}: the trajectory records no ${component} version (recorded by an older sandbox)`);
    else if (recorded !== now[component]) mismatches.push(`${component}: recorded with version ${recorded}, this checkout has ${now[component]}`);
  }
  return mismatches;
}
