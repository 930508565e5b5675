import { capBytes } from '../../src/mcp/for-servers/cap-bytes.ts';
import { PythonSandbox } from '../../src/python-sandbox/index.ts';
import type { MockTool } from '../../src/schemas/cctu-task.ts';
import type { ToolOutcome, ToolRuntime } from './tool-runtime.ts';

export interface PythonToolRuntimeOptions {
  tools: readonly MockTool[];
  /** Per-call wall time (default 10 s, CCTU's tool limit). */
  timeoutMs?: number;
  /** Python heap cap in MiB (default 64). */
  memoryLimitMb?: number;
  /** Cap on a result's UTF-8 bytes; longer results are cut and say so (default 64 KiB). */
  maxResultBytes?: number;
}

/**
 * The keyword arguments' JSON for Python: the text the model wrote when the client sent it and it parses to the
 * same arguments (Python's json.loads then gives `2.0` a float, as in CCTU's harness), else the parsed object again.
 */
function pythonArguments(args: object, argumentsText: string | undefined): string {
  const reserialised = JSON.stringify(args);
  if (argumentsText === undefined) return reserialised;
  try {
    return JSON.stringify(JSON.parse(argumentsText)) === reserialised ? argumentsText : reserialised;
  } catch {
    return reserialised;
  }
}

/**
 * Runs a task's Python tools (CCTU's `codes`: each source defines a function named like its tool) in one Python
 * sandbox, opened as soon as the runtime is made (on the next turn of the event loop), not on the first call: the
 * first call's timeout is the agent's budget for the tool, and a sandbox start (a full CPython boot on a machine's
 * first run, seconds on a loaded one) charged to it would turn into a tool error that costs the episode its score.
 * Each call runs the tool's source in a fresh namespace and calls
 * `fn(**arguments)`; the text is CCTU's (utils/utils.py, call_function: a dict or list — the exact types — as JSON
 * with ensure_ascii=False, else str()). An exception is CCTU's text for it (get_feedback_tools:
 * `an error occured when call <name>: <str(e)>`); a timeout or memory breach is an error outcome in our words (CCTU's
 * FunctionTimedOut text quotes the call's code object); a sandbox killed by one is replaced on the next call.
 */
export function createPythonToolRuntime(options: PythonToolRuntimeOptions): ToolRuntime {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxResultBytes ?? 64 * 1024;
  const sources = new Map(options.tools.map((tool) => [tool.name, tool.implementation]));
  let opening: Promise<{ sandbox: PythonSandbox; loadErrors: Map<string, string> }> | undefined;
  let disposed = false;

  async function open(): Promise<{ sandbox: PythonSandbox; loadErrors: Map<string, string> }> {
    const sandbox = await PythonSandbox.open({ timeoutMs, memoryLimitMb: options.memoryLimitMb });
    const loadErrors = new Map<string, string>();
    for (const [name, source] of sources) {
      const error = sandbox.define(name, source);
      if (error !== '') loadErrors.set(name, error);
    }
    if (disposed) sandbox.dispose();
    return { sandbox, loadErrors };
  }

  async function current(): Promise<{ sandbox: PythonSandbox; loadErrors: Map<string, string> }> {
    if (opening !== undefined) {
      const ready = await opening.catch(() => undefined);
      if (ready !== undefined && !ready.sandbox.dead) return ready;
    }
    opening = open();
    return opening;
  }

  opening = open();
  opening.catch(() => undefined); // a failed start is reported by the first call (current() opens again)

  return {
    async call(name, args, argumentsText): Promise<ToolOutcome> {
      if (!sources.has(name)) return { text: `Unknown tool "${name}". Available tools: ${[...sources.keys()].join(', ')}.`, isError: true };
      if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        return { text: `Arguments of ${name} must be a JSON object, got ${Array.isArray(args) ? 'an array' : args === null ? 'null' : typeof args}.`, isError: true };
      }
      let ready;
      try {
        ready = await current();
      } catch (error) {
        return { text: `Error: the Python sandbox could not start: ${(error as Error).message}`, isError: true };
      }
      const loadError = ready.loadErrors.get(name);
      if (loadError !== undefined) return { text: `Error: tool ${name} failed to load: ${loadError}`, isError: true };
      const outcome = ready.sandbox.call(name, name, pythonArguments(args, argumentsText), 'tool');
      if (outcome.ok) return { text: capBytes(outcome.value, maxBytes), isError: false };
      if (outcome.kind === 'timeout') return { text: `Error: ${name} timed out after ${timeoutMs} ms.`, isError: true };
      if (outcome.kind === 'memory') return { text: `Error: ${name} ran out of memory; try narrower arguments.`, isError: true };
      // CCTU's text for a tool that raises (utils/utils.py, get_feedback_tools): f"an error occured when call {name}: {str(e)}".
      if (outcome.kind === 'exception' && outcome.text !== undefined) return { text: capBytes(`an error occured when call ${name}: ${outcome.text}`, maxBytes), isError: true };
      return { text: `Error: ${capBytes(outcome.error, maxBytes)}`, isError: true };
    },
    // Python tools are given no world (CCTU's tools hold their data in their source), so nothing can be over a limit
    // before a call; the sandbox is already opening (above), and waiting for it here would only delay the start.
    prepare: () => Promise.resolve(),
    reset() {
      // A Python sandbox keeps module state between calls: the next episode gets a new one, opened now (as at
      // the start) so its first call's timeout is not charged with the restore.
      void opening?.then((ready) => ready.sandbox.dispose(), () => undefined);
      opening = open();
      opening.catch(() => undefined);
    },
    dispose() {
      disposed = true;
      void opening?.then((ready) => ready.sandbox.dispose(), () => undefined);
    },
  };
}
