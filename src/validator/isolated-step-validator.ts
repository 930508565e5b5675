import type { Constraint } from '../schemas/constraint.ts';
import type { Step, Verdict } from '../schemas/step.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { SandboxError } from '../sandbox-error.ts';
import { acquireIsolate, noteDisposedIsolates, openContext, recycleContext, releaseContext, type ValidatorContext } from './isolate-pool.ts';
import type { StepValidator } from './step-validator.ts';
import { customConstraintName } from './custom-constraint-name.ts';

/** Limits of the validator isolate. */
export interface ValidatorOptions {
  /** Heap limit of the isolate in MB; a breach disposes it (default 32). */
  memoryLimitMb?: number;
  /** Wall time one call into the isolate (one step, all constraints) may take (default 100 ms). */
  timeoutMs?: number;
}

export const DEFAULT_MEMORY_LIMIT_MB = 32;
export const DEFAULT_TIMEOUT_MS = 100;
const TIMEOUT_RETRY_FACTOR = 10;

type Encoded = [index: number, effect: Verdict['effect'], callId: string | null, message: string];

/**
 * One episode's validators in their own context of a shared isolate. The state lives in the isolate;
 * each step crosses once as a JSON string and verdicts come back as one ('' when there are none).
 *
 * When constraint code fails, that constraint gets one `error` verdict and is left out from then on:
 * an exception is caught inside the isolate; a timeout or a memory-limit breach stops the whole call,
 * so the host reads which constraint was running (a shared counter), builds a fresh context (and
 * isolate, after a breach), and replays the episode's earlier steps without it — validators are
 * deterministic reducers, so the others end up in exactly the state they had.
 */
export class IsolatedStepValidator implements StepValidator {
  private readonly memoryLimitMb: number;
  private readonly timeoutMs: number;
  private readonly entries: Array<{ category: string; params: unknown; source?: string; name?: string }>;
  private readonly broken = new Set<number>();
  private readonly history: string[] = [];
  private pending: Verdict[] = [];
  private live: ValidatorContext | undefined;
  private disposed = false;
  /** Set after a failure no constraint could be blamed for (deferred work: a promise job ran after the call). */
  private careful = false;
  /** In the careful mode, the constraint being called. */
  private running = -1;
  /** After a timeout the step is retried once with a longer one: a stalled machine is not a broken constraint. */
  private extended = false;

  constructor(
    private readonly constraints: readonly Constraint[],
    private readonly tools: readonly ToolSpec[],
    options: ValidatorOptions = {},
  ) {
    this.memoryLimitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.entries = constraints.map((constraint) =>
      constraint.category === 'custom'
        ? { category: 'custom', params: constraint.params.args, source: constraint.params.source, name: customConstraintName(constraint.params.name) }
        : { category: constraint.category, params: constraint.params },
    );
    this.instantiate();
  }

  /** The StepValidator contract; the work is synchronous (an async call into the isolate costs ~40 µs, a sync one ~5). */
  check(step: Step): Promise<Verdict[]> {
    try {
      return Promise.resolve(this.checkSync(step));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Checks one step against every constraint and advances their state. */
  checkSync(step: Step): Verdict[] {
    if (this.disposed) throw new SandboxError('internal', 'a disposed step validator was asked to check a step');
    const stepJson = JSON.stringify(step);
    for (;;) {
      if (this.live === undefined || this.live.pooled !== acquireIsolate(this.memoryLimitMb)) this.instantiate();
      const live = this.live!;
      try {
        const found = this.careful ? this.checkEach(live, stepJson) : this.decode(live.check.applySync(undefined, [stepJson], { timeout: this.timeout() }));
        this.history.push(stepJson);
        this.extended = false;
        if (this.pending.length === 0) return found;
        const verdicts = this.pending.concat(found);
        this.pending = [];
        return verdicts;
      } catch (error) {
        this.recordFailure(error, live);
      }
    }
  }

  /** The careful mode: one call per constraint, so whatever fails (even deferred work) is the running one's. */
  private checkEach(live: ValidatorContext, stepJson: string): Verdict[] {
    const found: Verdict[] = [];
    for (let index = 0; index < this.constraints.length; index++) {
      if (this.broken.has(index)) continue;
      this.running = index;
      found.push(...this.decode(live.checkOne.applySync(undefined, [stepJson, index], { timeout: this.timeout() })));
    }
    this.running = -1;
    return found;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.live !== undefined) recycleContext(this.live);
    this.live = undefined;
  }

  private decode(out: string): Verdict[] {
    if (out === '') return [];
    return (JSON.parse(out) as Encoded[]).map(([index, effect, callId, message]) => {
      const constraint = this.constraints[index]!;
      if (effect === 'error') {
        this.broken.add(index);
        return this.errorVerdict(index, message);
      }
      return callId === null
        ? { constraintId: constraint.id, category: constraint.category, effect, message }
        : { constraintId: constraint.id, category: constraint.category, effect, callId, message };
    });
  }

  private timeout(): number {
    return this.extended ? this.timeoutMs * TIMEOUT_RETRY_FACTOR : this.timeoutMs;
  }

  private errorVerdict(index: number, detail: string): Verdict {
    const constraint = this.constraints[index]!;
    return {
      constraintId: constraint.id,
      category: constraint.category,
      effect: 'error',
      message: `validator error in constraint "${constraint.id}" (${constraint.category}): ${detail}; it is not checked from here on`,
    };
  }

  /** A call into the isolate did not return: blame the constraint that was running and leave it out. */
  private recordFailure(error: unknown, failed: ValidatorContext | undefined): void {
    noteDisposedIsolates();
    const disposedIsolate = failed?.pooled.isolate.isDisposed === true;
    const text = error instanceof Error ? error.message : String(error);
    const detail = disposedIsolate
      ? `exceeded the ${this.memoryLimitMb} MB memory limit (the isolate was disposed)`
      : /timed out/i.test(text)
        ? `timed out (after ${this.timeoutMs} ms, then ${this.timeoutMs * TIMEOUT_RETRY_FACTOR} ms)`
        : `failed: ${text}`;
    const culprit = this.careful ? this.running : failed === undefined ? -1 : failed.progress[0]!;
    this.running = -1;
    if (failed !== undefined) releaseContext(failed);
    if (this.live === failed) this.live = undefined;
    if (!disposedIsolate && /timed out/i.test(text) && !this.extended) {
      // Wall-clock timeouts also fire when a loaded machine stalls the call: retry this step (in a fresh
      // context, replaying the earlier steps) with ten times the time before blaming anyone.
      this.extended = true;
      return;
    }
    if (culprit < 0 && !this.careful) {
      // Failed outside any constraint's turn: work one of them deferred (a promise job runs after the
      // whole call). Go careful — one call per constraint — and the retry will find whose it was.
      this.careful = true;
      return;
    }
    const blamed = culprit >= 0 && culprit < this.constraints.length && !this.broken.has(culprit) ? [culprit] : this.constraints.map((_, index) => index).filter((index) => !this.broken.has(index));
    if (blamed.length === 0) throw new SandboxError('validator-error', `the validator runtime failed with no constraint left to blame: ${detail}`, { cause: error });
    for (const index of blamed) {
      this.broken.add(index);
      this.pending.push(this.errorVerdict(index, culprit === index ? detail : `the validator runtime ${detail}`));
    }
  }

  /** A context (spare or new): init the validators (minus broken ones), replay earlier steps. */
  private instantiate(): void {
    for (;;) {
      this.live = undefined;
      let live: ValidatorContext | undefined;
      try {
        live = openContext(acquireIsolate(this.memoryLimitMb), this.timeoutMs);
        live.progress[0] = -1;
        const config = JSON.stringify({ constraints: this.entries, tools: this.tools, broken: [...this.broken] });
        if (this.careful) this.initEach(live, config);
        else this.recordInitFailures(live.init.applySync(undefined, [config], { timeout: this.timeout() }));
        // Verdicts of past steps were returned when they happened; only the state is rebuilt here.
        for (const past of this.history) {
          if (this.careful) this.checkEach(live, past);
          else live.check.applySync(undefined, [past], { timeout: this.timeout() });
        }
        this.live = live;
        return;
      } catch (error) {
        this.recordFailure(error, live);
      }
    }
  }

  private initEach(live: ValidatorContext, config: string): void {
    live.configure.applySync(undefined, [config], { timeout: this.timeout() });
    for (let index = 0; index < this.constraints.length; index++) {
      if (this.broken.has(index)) continue;
      this.running = index;
      this.recordInitFailures(live.initOne.applySync(undefined, [index], { timeout: this.timeout() }));
    }
    this.running = -1;
  }

  private recordInitFailures(failures: string): void {
    if (failures === '') return;
    for (const [index, message] of JSON.parse(failures) as Array<[number, string]>) {
      this.broken.add(index);
      this.pending.push(this.errorVerdict(index, message));
    }
  }
}
