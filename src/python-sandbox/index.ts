export {
  PythonSandbox,
  sandboxStarts,
  DEFAULT_PYTHON_MEMORY_MB,
  DEFAULT_PYTHON_TIMEOUT_MS,
  SANDBOX_EPOCH_MS,
  type PythonOutcome,
  type PythonSandboxOptions,
} from './python-sandbox.ts';
export { takeFreshSandbox, disposeSandboxPool } from './sandbox-pool.ts';
