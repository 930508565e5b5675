import { Option } from 'commander';
import { errorCodeOf, type EpisodeEnd } from '../engine/error-cause.ts';
import { UsageError, type SandboxErrorCode } from '../sandbox-error.ts';

/** The commands that take `--json` (main() also answers their failures as JSON when it is given). */
export const JSON_COMMANDS: readonly string[] = ['run', 'episode', 'replay', 'fork'];

export function jsonOption(): Option {
  return new Option('--json', 'print one JSON object on stdout at the end (what the command did, its exit code and why); the human output goes to stderr');
}

/**
 * Where a command writes: without `--json`, its human output on stdout; with it, the same output on stderr and one
 * JSON object (`result`) on stdout at the end, so `sandbox run … --json | jq` reads one document.
 */
export interface CommandOutput {
  human(text: string): void;
  result(command: string, exitCode: number, fields: Record<string, unknown>): void;
}

export function commandOutput(json: boolean | undefined): CommandOutput {
  const humanStream = json ? process.stderr : process.stdout;
  return {
    human: (text) => void humanStream.write(text),
    result: (command, exitCode, fields) => {
      if (json) process.stdout.write(`${JSON.stringify({ command, exitCode, ...fields })}\n`);
    },
  };
}

/** An episode's ending for the JSON object: status, reason and, for an `error`, its cause (the exit code's name). */
export function endingFields(end: EpisodeEnd): { status: string; reason: string; errorCause: SandboxErrorCode | null } {
  return { status: end.status, reason: end.reason, errorCause: errorCodeOf(end) };
}

/** `--json` among a command's arguments (before `--`), for main() to answer a failure as JSON too. */
export function wantsJson(argv: readonly string[], command: string | undefined): boolean {
  if (command === undefined || !JSON_COMMANDS.includes(command)) return false;
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** `--model human` asks its questions on stdout, where `--json` promises one JSON object: the two do not go together. */
export function checkJsonModel(json: boolean | undefined, spec: string): void {
  if (json && spec === 'human') throw new UsageError('--json cannot be used with --model human (the human model plays on stdout)');
}
