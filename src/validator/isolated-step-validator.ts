import type { Constraint } from '../schemas/constraint.ts';
import type { Step, Verdict } from '../schemas/step.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { SandboxError } from '../sandbox-error.ts';
import { FOLLOWING_ERROR_PREFIX } from '../schemas/cctu-markers.ts';
import {
  acquireIsolate,
  disposeCustomIsolate,
  noteDisposedIsolates,
  openContext,
  openCustomContext,
  openCustomIsolate,
  progressTransfer,
  recycleContext,
  releaseContext,
  releaseCustomContext,
  type CustomContext,
  type CustomIsolate,
  type ValidatorContext,
} from './isolate-pool.ts';
import type { StepValidator } from './step-validator.ts';
import { customConstraintName } from './custom-constraint-name.ts';
import { cctuCallFeedback, type CallFeedback } from './call-feedback.ts';
import { roundLimitVerdicts } from './round-limit.ts';

/** Limits of the validator isolates. */
export interface ValidatorOptions {
  /** Heap limit of an isolate in MB; a breach disposes it (default 32). */
  memoryLimitMb?: number;
  /** Wall time one call into an isolate (one step: all built-ins, or one custom constraint) may take (default 100 ms). */
  timeoutMs?: number;
  /** Feedback of a call several constraints block: CCTU's (every handler's, the argument check's only alone; the default) or all. */
  callFeedback?: CallFeedback;
}

export const DEFAULT_MEMORY_LIMIT_MB = 32;
export const DEFAULT_TIMEOUT_MS = 100;
const TIMEOUT_RETRY_FACTOR = 10;
const EFFECTS: ReadonlyArray<Verdict['effect']> = ['block-call', 'reject-answer', 'end-episode', 'error'];

type Encoded = [index: number, effect: Verdict['effect'], callId: string | null, message: string];

interface CustomSlot {
  index: number;
  name: string;
  source: string;
  argsJson: string;
  live: CustomContext | undefined;
}

/**
 * One episode's validators. Built-in validators run together in a context of a shared isolate (trusted
 * code only): each step crosses once as a JSON string and their verdicts come back as one. The episode's
 * custom constraints run in an isolate of their own, each alone in a context of its own, called once per
 * step; one shares no intrinsic, global or reference with the runtime or any other constraint, and only a
 * string comes back, which is checked here before it becomes a verdict. The state of every validator stays
 * in its isolate. The custom constraints share that isolate's heap, sized for each to have the memory limit
 * an isolate of its own had: a breach disposes it under all of them, the one whose call was running is
 * blamed (calls are synchronous, one at a time), and the others are rebuilt in a new one by replay.
 *
 * When constraint code fails, that constraint gets one `error` verdict and is left out from then on. A
 * timeout is retried once with ten times the time first (a loaded machine stalls calls that do not loop).
 * A failed call leaves its isolate's state unknown, so the failed part is rebuilt by replaying the
 * episode's earlier steps — validators are deterministic reducers, so the others end up in exactly the
 * state they had. In the shared isolate a counter in shared memory says which built-in was running.
 */
export class IsolatedStepValidator implements StepValidator {
  private readonly memoryLimitMb: number;
  private readonly timeoutMs: number;
  private readonly callFeedback: CallFeedback;
  private readonly builtins: Array<{ index: number; category: string; params: unknown }> = [];
  private readonly customs: CustomSlot[] = [];
  private readonly toolsJson: string;
  private readonly broken = new Set<number>();
  private readonly history: string[] = [];
  private pending: Verdict[] = [];
  private runtime: ValidatorContext | undefined;
  /** The isolate of this episode's custom constraints, made at the first one's first check. */
  private customHost: CustomIsolate | undefined;
  private disposed = false;
  /** Contexts rebuilt because another episode's breach disposed the shared isolate under this one. */
  private rebuilds = 0;

  constructor(
    private readonly constraints: readonly Constraint[],
    private readonly tools: readonly ToolSpec[],
    options: ValidatorOptions = {},
  ) {
    this.memoryLimitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.callFeedback = options.callFeedback ?? 'cctu';
    this.toolsJson = JSON.stringify(tools);
    constraints.forEach((constraint, index) => {
      if (constraint.category === 'custom') {
        const { name, source, args } = constraint.params;
        this.customs.push({ index, name: customConstraintName(name), source, argsJson: JSON.stringify(args), live: undefined });
      } else {
        this.builtins.push({ index, category: constraint.category, params: constraint.params });
      }
    });
  }

  /** The StepValidator contract; the work is synchronous (an async call into an isolate costs ~40 µs, a sync one ~5). */
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
    const found = this.checkBuiltins(stepJson);
    for (const slot of this.customs) if (!this.broken.has(slot.index)) found.push(...this.checkCustom(slot, stepJson, step));
    this.history.push(stepJson);
    // In constraint order, as one call for all would give them (the sort is stable).
    if (this.customs.length > 0) found.sort((a, b) => a[0] - b[0]);
    let verdicts = found.map((encoded) => this.toVerdict(encoded));
    if (verdicts.length > 1 && this.callFeedback === 'cctu') verdicts = cctuCallFeedback(verdicts);
    if (verdicts.length > 0 && step.kind === 'final-answer') verdicts = verdicts.concat(roundLimitVerdicts(this.constraints, step, verdicts, this.broken));
    if (this.pending.length === 0) return verdicts;
    const all = this.pending.concat(verdicts);
    this.pending = [];
    return all;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.runtime !== undefined) recycleContext(this.runtime);
    this.runtime = undefined;
    for (const slot of this.customs) slot.live = undefined;
    if (this.customHost !== undefined) disposeCustomIsolate(this.customHost);
    this.customHost = undefined;
  }

  // ── built-in validators: one call per step into the shared isolate ──

  private checkBuiltins(stepJson: string): Encoded[] {
    let extended = false;
    for (;;) {
      if (this.builtins.every((entry) => this.broken.has(entry.index))) return [];
      try {
        const live = this.liveRuntime(this.timeout(extended));
        return this.decodeBuiltins(live.entry.applySync(undefined, ['check', stepJson], { timeout: this.timeout(extended) }));
      } catch (error) {
        extended = this.runtimeFailed(error, extended);
      }
    }
  }

  /** The runtime context, opened (a spare or new), initialised and brought to the current state when needed. */
  private liveRuntime(timeout: number): ValidatorContext {
    // Its isolate still alive (a breach elsewhere in it marks it dead): the context goes on; else a new one is built.
    if (this.runtime !== undefined && !this.runtime.pooled.dead) return this.runtime;
    this.runtime = undefined;
    const live = openContext(acquireIsolate(this.memoryLimitMb), timeout);
    this.runtime = live;
    live.progress[0] = -1;
    const constraintsJson = JSON.stringify(this.builtins.filter((entry) => !this.broken.has(entry.index)));
    const failures = live.progressShared
      ? live.entry.applySync(undefined, ['init', constraintsJson, this.toolsJson], { timeout })
      : live.entry.applySync(undefined, ['init', constraintsJson, this.toolsJson, progressTransfer(live)], { timeout });
    live.progressShared = true;
    if (failures !== '') {
      for (const [index, message] of JSON.parse(failures) as Array<[number, string]>) {
        this.broken.add(index);
        this.pending.push(this.errorVerdict(index, message));
      }
    }
    // Verdicts of past steps were returned when they happened; only the state is rebuilt here.
    for (const past of this.history) live.entry.applySync(undefined, ['check', past], { timeout });
    return live;
  }

  /** A call into the shared isolate did not return: retry a first timeout, else blame the built-in that was running. Returns `extended`. */
  private runtimeFailed(error: unknown, extended: boolean): boolean {
    noteDisposedIsolates();
    const failed = this.runtime;
    this.runtime = undefined;
    const disposedIsolate = failed?.pooled.isolate.isDisposed === true;
    const detail = this.describeFailure(error, disposedIsolate);
    const culprit = failed === undefined ? -1 : failed.progress[0]!;
    if (failed !== undefined) releaseContext(failed);
    // The shared isolate was gone before this call ran (isolated-vm 5 says "Isolated is disposed" then, and "Isolate
    // was disposed during execution" when this call breached it): another
    // episode's breach. Nothing of ours failed: the next try builds a context in a live isolate and replays our steps.
    if (disposedIsolate && error instanceof Error && /^Isolated? is disposed$/.test(error.message) && this.rebuilds++ < 3) return extended;
    if (!disposedIsolate && isTimeout(error) && !extended) return true;
    const remaining = this.builtins.map((entry) => entry.index).filter((index) => !this.broken.has(index));
    const blamed = remaining.includes(culprit) ? [culprit] : remaining;
    if (blamed.length === 0) throw new SandboxError('validator-error', `the validator runtime failed with no constraint left to blame: ${detail}`, { cause: error });
    for (const index of blamed) {
      this.broken.add(index);
      this.pending.push(this.errorVerdict(index, culprit === index ? detail : `the validator runtime ${detail}`));
    }
    return false;
  }

  private decodeBuiltins(out: string): Encoded[] {
    if (out === '') return [];
    const found = JSON.parse(out) as Encoded[];
    for (const [index, effect] of found) if (effect === 'error') this.broken.add(index);
    return found;
  }

  // ── custom constraints: each alone in a context of the episode's custom isolate, one call per step ──

  private checkCustom(slot: CustomSlot, stepJson: string, step: Step): Encoded[] {
    let extended = false;
    for (;;) {
      try {
        const timeout = this.timeout(extended);
        if (slot.live === undefined) {
          const failure = this.openCustom(slot, timeout);
          if (failure !== null) return this.breakCustom(slot, failure);
        }
        return this.decodeCustom(slot, slot.live!.entry.applySync(undefined, ['check', stepJson], { timeout }), step);
      } catch (error) {
        const disposedIsolate = this.customHost?.isolate.isDisposed === true;
        if (disposedIsolate) this.customIsolateLost();
        else if (slot.live !== undefined) releaseCustomContext(slot.live);
        slot.live = undefined;
        if (!disposedIsolate && isTimeout(error) && !extended) {
          extended = true;
          continue;
        }
        return this.breakCustom(slot, disposedIsolate ? this.describeCustomBreach() : this.describeFailure(error, false));
      }
    }
  }

  /**
   * A memory-limit breach disposed the custom isolate during one constraint's call (it is blamed): every other
   * custom constraint's context went with it, so each is rebuilt, in a new isolate, at its next check by
   * replaying the episode's steps — those that checked the current step already get it back with the history.
   */
  private customIsolateLost(): void {
    for (const other of this.customs) other.live = undefined;
    this.customHost = undefined;
  }

  private describeCustomBreach(): string {
    const shared = this.customs.length > 1 ? `, which the episode's ${this.customs.length} custom constraints share at ${this.customs.length} × ${this.memoryLimitMb} MB` : '';
    return `exceeded the ${this.memoryLimitMb} MB memory limit (the isolate was disposed${shared}; the task's "limits": { "validatorMemoryMb": N } raises it)`;
  }

  /** The custom isolate's heap: the memory limit for each custom constraint, as an isolate of its own had. */
  private customMemoryLimitMb(): number {
    return this.memoryLimitMb * Math.max(1, this.customs.length);
  }

  /** A fresh context for the constraint (in the episode's custom isolate, made when needed), initialised and brought to the current state; null, or why init failed. */
  private openCustom(slot: CustomSlot, timeout: number): string | null {
    this.customHost ??= openCustomIsolate(this.customMemoryLimitMb());
    const live = openCustomContext(this.customHost, timeout);
    slot.live = live;
    const failure = live.entry.applySync(undefined, ['init', slot.name, slot.source, slot.argsJson, this.toolsJson], { timeout });
    if (typeof failure !== 'string') return 'init failed: the constraint runtime returned no status';
    if (failure !== '') return failure;
    for (const past of this.history) live.entry.applySync(undefined, ['check', past], { timeout });
    return null;
  }

  private breakCustom(slot: CustomSlot, detail: string): Encoded[] {
    this.broken.add(slot.index);
    if (slot.live !== undefined) releaseCustomContext(slot.live);
    slot.live = undefined;
    return [[slot.index, 'error', null, detail]];
  }

  /**
   * What a custom constraint's isolate returned: '' or JSON [[effect, callId, message]]. Only a string
   * crosses (isolated-vm copies it), and nothing in it is believed before it is checked here.
   */
  private decodeCustom(slot: CustomSlot, out: unknown, step: Step): Encoded[] {
    if (out === '') return [];
    const callIds = step.kind === 'tool-calls' ? new Set(step.calls.map((call) => call.id)) : new Set<string>();
    let found: unknown;
    try {
      found = typeof out === 'string' ? JSON.parse(out) : undefined;
    } catch {
      found = undefined;
    }
    if (!Array.isArray(found) || found.length === 0) return this.breakCustom(slot, 'returned malformed verdicts');
    const encoded: Encoded[] = [];
    for (const item of found) {
      if (!Array.isArray(item) || item.length !== 3) return this.breakCustom(slot, 'returned malformed verdicts');
      const [effect, callId, message] = item as unknown[];
      if (typeof message !== 'string' || !EFFECTS.includes(effect as Verdict['effect'])) return this.breakCustom(slot, 'returned malformed verdicts');
      if (effect === 'error') return this.breakCustom(slot, message);
      const callOk = effect === 'block-call' ? typeof callId === 'string' && callIds.has(callId) : callId === null;
      if (!callOk || !message.startsWith(FOLLOWING_ERROR_PREFIX)) return this.breakCustom(slot, 'returned malformed verdicts');
      encoded.push([slot.index, effect as Verdict['effect'], callId as string | null, message]);
    }
    return encoded;
  }

  // ── shared ──

  private toVerdict([index, effect, callId, message]: Encoded): Verdict {
    const constraint = this.constraints[index]!;
    if (effect === 'error') return this.errorVerdict(index, message);
    return callId === null
      ? { constraintId: constraint.id, category: constraint.category, effect, message }
      : { constraintId: constraint.id, category: constraint.category, effect, callId, message };
  }

  private timeout(extended: boolean): number {
    return extended ? this.timeoutMs * TIMEOUT_RETRY_FACTOR : this.timeoutMs;
  }

  private describeFailure(error: unknown, disposedIsolate: boolean): string {
    if (disposedIsolate) return `exceeded the ${this.memoryLimitMb} MB memory limit (the isolate was disposed; the task's "limits": { "validatorMemoryMb": N } raises it)`;
    if (isTimeout(error)) return `timed out (after ${this.timeoutMs} ms, then ${this.timeoutMs * TIMEOUT_RETRY_FACTOR} ms)`;
    return `failed: ${error instanceof Error ? error.message : String(error)}`;
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
}

function isTimeout(error: unknown): boolean {
  return /timed out/i.test(error instanceof Error ? error.message : String(error));
}
