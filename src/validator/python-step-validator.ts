import { PythonSandbox, takeFreshSandbox, type PythonOutcome } from '../python-sandbox/index.ts';
import type { Constraint } from '../schemas/constraint.ts';
import type { Step, Verdict } from '../schemas/step.ts';
import { customConstraintName } from './custom-constraint-name.ts';
import { followingErrorHead } from '../schemas/cctu-markers.ts';
import { cctuAnswerText, pythonStrip } from '../schemas/cctu-text.ts';

export type PythonConstraint = Extract<Constraint, { category: 'python' }>;

export interface PythonValidatorOptions {
  /** Wall time of one validator call in ms (default 2 000; a timeout is retried once, 5× longer, in a fresh sandbox). */
  timeoutMs?: number;
  /** Python heap cap in MiB (default 64). */
  memoryLimitMb?: number;
}

export const DEFAULT_PYTHON_VALIDATOR_TIMEOUT_MS = 2_000;
/** The response a Python validator reads: CCTU's (`cctuAnswerText`: every `<think>…</think>` removed, then stripped). */
export const responseForValidation = cctuAnswerText;

/**
 * The task's `python` constraints (CCTU's response validators), each in a Python sandbox of its own for the episode,
 * opened when the episode starts (`prepare`) or at the first final answer. A sandbox is an isolate of its own with its
 * own interpreter restored from the clean snapshot, so one validator cannot change another's verdict whatever it does
 * to its interpreter (patch builtins, `sys.modules`, `json`, `re`, a class, the sandbox's own call path): the
 * other's interpreter is not the same memory. The same holds for the task's tools (mock-tools has its own sandbox)
 * and for the next episode (new sandboxes). The validator's file is run once per sandbox, at its first call, and its
 * module kept for the episode's later answers, as CCTU's validator_loader.py (load_validator_func, lru_cache)
 * imports it once per process: module-level state lives from one answer to the next within the episode (CCTU keeps
 * it for the whole process, across samples and repeats; here the next episode starts clean, as the isolation
 * requires). Re-validation replays the episode's answers in order in fresh sandboxes, so it gives the same
 * verdicts. The result is read as CCTU's handlers read it (handlers/response.py: `ok, msg = …; if not ok:`): any
 * two-item result, `ok` by its truth, `msg` formatted with str(). A validator that raises (CCTU's harness would
 * retry the model call and, failing, drop the sample), returns something that does not unpack into two, times out
 * twice or runs out of memory gets one `error` verdict and is left out from then on; the others are unaffected.
 */
export class PythonStepValidator {
  readonly #constraints: readonly PythonConstraint[];
  readonly #timeoutMs: number;
  readonly #memoryLimitMb: number | undefined;
  readonly #broken = new Set<number>();
  /** Validators whose source did not compile, with the error (reported at the first answer). */
  readonly #loadErrors = new Map<number, string>();
  /** One sandbox per validator (by index): none shares an interpreter with another. */
  readonly #sandboxes = new Map<number, PythonSandbox>();
  #disposed = false;

  constructor(constraints: readonly PythonConstraint[], options: PythonValidatorOptions = {}) {
    this.#constraints = constraints;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_PYTHON_VALIDATOR_TIMEOUT_MS;
    this.#memoryLimitMb = options.memoryLimitMb;
  }

  /** Opens the sandboxes now rather than at the first answer (the engine does it while the episode starts). */
  prepare(): void {
    this.#constraints.forEach((_constraint, index) => this.#open(index, this.#timeoutMs));
  }

  /** Validator `index`'s sandbox, with its source defined (opened now if it has none or a call killed it). */
  #open(index: number, timeoutMs: number): PythonSandbox {
    const current = this.#sandboxes.get(index);
    if (current !== undefined && !current.dead) return current;
    const constraint = this.#constraints[index]!;
    // Made ahead of need and never used before (sandbox-pool.ts), or opened now: restored from the clean snapshot
    // either way. The rare patient retry after a timeout opens its own, so no pool is kept for its longer limit.
    const options = { timeoutMs, memoryLimitMb: this.#memoryLimitMb };
    const sandbox = timeoutMs === this.#timeoutMs ? takeFreshSandbox(options) : PythonSandbox.openSync(options);
    const failure = sandbox.define(`constraint_${index}`, constraint.params.source);
    if (failure !== '') this.#loadErrors.set(index, failure);
    this.#sandboxes.set(index, sandbox);
    return sandbox;
  }

  #call(index: number, response: string): PythonOutcome {
    const constraint = this.#constraints[index]!;
    const args = JSON.stringify([response]);
    let outcome = this.#open(index, this.#timeoutMs).call(`constraint_${index}`, constraint.params.function, args, 'validator');
    if (!outcome.ok && outcome.kind === 'timeout') {
      // A stalled machine is not a broken validator: once more, in a fresh sandbox with a longer limit.
      const patient = this.#open(index, this.#timeoutMs * 5);
      outcome = patient.call(`constraint_${index}`, constraint.params.function, args, 'validator');
      patient.dispose();
    }
    return outcome;
  }

  /** Verdicts of the python constraints on one step: only final answers are checked. */
  checkSync(step: Step): Verdict[] {
    if (this.#disposed || step.kind !== 'final-answer' || this.#constraints.length === 0) return [];
    const response = responseForValidation(step.content);
    const verdicts: Verdict[] = [];
    this.#constraints.forEach((constraint, index) => {
      if (this.#broken.has(index)) return;
      const outcome = this.#outcome(index, response);
      if (typeof outcome === 'string') {
        this.#broken.add(index);
        verdicts.push({ constraintId: constraint.id, category: 'python', effect: 'error', message: `${constraint.params.function} failed: ${outcome}` });
      } else if (!outcome.passed) {
        verdicts.push({
          constraintId: constraint.id,
          category: 'python',
          effect: 'reject-answer',
          // Stripped, as CCTU's Feedback.add_user strips every message (utils/constraint_checker/feedback.py).
          message: pythonStrip(`${followingErrorHead(customConstraintName(constraint.params.name))}${outcome.message}`),
        });
      }
    });
    return verdicts;
  }

  /** One validator's answer on `response`: passed and its message, or why it could not give one. */
  #outcome(index: number, response: string): { passed: boolean; message: string } | string {
    let outcome: PythonOutcome;
    try {
      this.#open(index, this.#timeoutMs);
    } catch (failure) {
      return `the Python sandbox could not start: ${(failure as Error).message}`;
    }
    const loadError = this.#loadErrors.get(index);
    if (loadError !== undefined) return `its source does not compile: ${loadError}`;
    try {
      outcome = this.#call(index, response);
    } catch (failure) {
      return `the Python sandbox could not start: ${(failure as Error).message}`;
    }
    if (!outcome.ok) return outcome.kind === 'exception' ? outcome.error : `${outcome.error} (${outcome.kind})`;
    // The sandbox read `(ok, msg)` as CCTU's handlers do (`if not ok:`, f"{msg}"): `[passed, message]`.
    let result: unknown;
    try {
      result = JSON.parse(outcome.value);
    } catch {
      result = undefined;
    }
    if (!Array.isArray(result) || typeof result[0] !== 'boolean' || typeof result[1] !== 'string') return `the sandbox's answer is not a verdict: ${outcome.value.slice(0, 200)}`;
    return { passed: result[0], message: result[1] };
  }

  dispose(): void {
    this.#disposed = true;
    for (const sandbox of this.#sandboxes.values()) sandbox.dispose();
    this.#sandboxes.clear();
  }
}
