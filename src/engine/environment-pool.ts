import { startEnvironment, type StartEnvironmentOptions, type ToolEnvironment } from '../mcp/start-environment.ts';
import type { Task } from '../schemas/task.ts';
import { serverTaskParts } from '../mcp/environments/index.ts';

/** Idle environments kept at most (the least recently given back is closed first): a suite plays a task's repeats in a row. */
const MAX_IDLE = 16;

/**
 * The environments of a suite, reused by the next episode whose task has the same environment (servers and their
 * options, tools, allowed tools, tool timeout): the repeats of a task, and tasks over the same world and tools.
 * Starting one (servers, MCP connections, tool listing) costs more than an episode's steps. An environment is given
 * back reset (ToolEnvironment.reset: as newly started) or closed: closed when a server cannot be reset, or when the
 * episode ended in a way that may leave work running in it (an error, an abort). Never shared by two live episodes.
 */
export class EnvironmentPool {
  /** Idle environments, least recently given back first. */
  private idle: Array<{ key: string; environment: ToolEnvironment }> = [];
  private readonly keys = new WeakMap<Task, string>();
  private closed = false;

  constructor(private readonly options: StartEnvironmentOptions = {}) {}

  /** An idle environment for the task, or a newly started one. */
  async acquire(task: Task): Promise<ToolEnvironment> {
    const key = this.keyOf(task);
    const index = this.idle.findLastIndex((entry) => entry.key === key);
    if (index >= 0) return this.idle.splice(index, 1)[0]!.environment;
    return startEnvironment(task, this.options);
  }

  /** Gives back the environment an episode of `task` used: reset and kept when `reusable` and it can be, else closed. */
  async release(task: Task, environment: ToolEnvironment, reusable: boolean): Promise<void> {
    if (!reusable || !environment.reset || this.closed) return environment.close();
    try {
      environment.reset();
    } catch {
      return environment.close();
    }
    this.idle.push({ key: this.keyOf(task), environment });
    if (this.idle.length > MAX_IDLE) await this.idle.shift()!.environment.close();
  }

  /** Closes every idle environment; environments given back later are closed. */
  async close(): Promise<void> {
    this.closed = true;
    const all = this.idle;
    this.idle = [];
    await Promise.all(all.map((entry) => entry.environment.close().catch(() => undefined)));
  }

  /** What decides an environment: two tasks with the same key get the same servers, tools and limits. */
  private keyOf(task: Task): string {
    let key = this.keys.get(task);
    if (key === undefined) {
      // what its servers read of the task beyond their refs too (a service task's customer): another customer is another environment
      key = JSON.stringify([task.environment, 'tools' in task ? task.tools : null, task.limits.toolTimeoutMs, serverTaskParts(task)]);
      this.keys.set(task, key);
    }
    return key;
  }
}
