import { Command } from 'commander';
import { z } from 'zod';
import { loadTask, resolveRecordedTaskPath } from '../engine/load-task.ts';
import { readTrajectory } from '../schemas/read-trajectory.ts';
import { SandboxError } from '../sandbox-error.ts';
import { ConstraintSchema, type Constraint } from '../schemas/constraint.ts';
import { readConstraintsFile } from '../engine/constraints-file.ts';
import type { EventOf } from '../schemas/event.ts';
import type { Step } from '../schemas/step.ts';
import type { ValidationReport } from '../validator/validate-trajectory.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { checkWithSchema } from '../schemas/json-with-schema.ts';
import { saveDivergences } from './save-divergences.ts';

const EmbeddedTaskSchema = z.object({ constraints: z.array(ConstraintSchema).default([]), limits: z.object({ validatorMemoryMb: z.number().optional() }).loose().optional() }).loose();

/** The constraints to re-validate under, and the validator heap the task asks for (its `limits.validatorMemoryMb`). */
async function constraintsOf(start: EventOf<'episode-start'>, file: string | undefined): Promise<{ constraints: Constraint[]; memoryLimitMb?: number }> {
  // With a constraints file the task is read only for its limits: a task file moved since is no reason to refuse.
  if (file !== undefined) return { constraints: await readConstraintsFile(file), memoryLimitMb: (await recordedTask(start).catch(() => undefined))?.memoryLimitMb };
  const recorded = await recordedTask(start);
  if (recorded !== undefined) return recorded;
  throw new SandboxError('invalid-input', 'the trajectory names no task (episode-start has neither taskPath nor task): pass --constraints <file>');
}

async function recordedTask(start: EventOf<'episode-start'>): Promise<{ constraints: Constraint[]; memoryLimitMb?: number } | undefined> {
  if (start.taskPath !== undefined) {
    const { task } = await loadTask(resolveRecordedTaskPath(start.taskPath));
    return { constraints: task.constraints, memoryLimitMb: task.limits.validatorMemoryMb };
  }
  if (start.task !== undefined) {
    const task = checkWithSchema(start.task, EmbeddedTaskSchema, 'episode-start.task');
    return { constraints: task.constraints, memoryLimitMb: task.limits?.validatorMemoryMb };
  }
  return undefined;
}

function describeStep(step: Step): string {
  if (step.kind === 'final-answer') return `final answer (${[...step.content].length} chars)`;
  return step.calls.map((call) => `${call.name}#${call.id}`).join(', ');
}

function printReport(report: ValidationReport, constraints: Constraint[], skipped: number): void {
  const out: string[] = [];
  for (const { step, verdicts } of report.steps) {
    out.push(`round ${step.round}: ${describeStep(step)}`);
    for (const verdict of verdicts) {
      const what =
        verdict.effect === 'block-call' ? `would block ${verdict.callId}` : verdict.effect === 'reject-answer' ? 'would reject the answer' : verdict.effect === 'end-episode' ? 'would end the episode (limit)' : 'validator error';
      out.push(`  ${verdict.constraintId} ${what}: ${verdict.message}`);
    }
  }
  if (report.endedAt !== null && skipped > 0) out.push(`(the episode would have ended there: ${skipped} later step${skipped === 1 ? '' : 's'} would not have happened)`);
  out.push('', 'constraint status:');
  for (const constraint of constraints) out.push(`  ${constraint.id.padEnd(16)} ${constraint.category.padEnd(36)} ${report.statuses[constraint.id]}`);
  out.push('', report.passed ? 'would have passed: yes' : 'would have passed: no');
  process.stdout.write(`${out.join('\n')}\n`);
}

/** `sandbox validate <trajectory> [--constraints <file>]`: re-validate a saved trajectory under its own or changed constraints. */
export function validateCommand(): Command {
  return new Command('validate')
    .description('Re-validate a saved trajectory under its own constraints or a changed constraints file, and show what would have been blocked or rejected')
    .argument('<trajectory>', 'a trajectory file (runs/<run>/<task>.<repeat>.jsonl)')
    .option('--constraints <file>', 'constraints to apply instead of the task\'s: a JSON list of constraints, or an object (e.g. a task file) with "constraints"')
    .option('--json', 'print the report as JSON')
    .option('--save', 'also write where it differs from the recorded checks beside the trajectory (<task>.<repeat>.validate.json), for sandbox view')
    .action(async (file: string, options: { constraints?: string; json?: boolean; save?: boolean }) => {
      const { events } = await readTrajectory(file);
      const start = events.find((event): event is EventOf<'episode-start'> => event.type === 'episode-start');
      if (start === undefined) throw new SandboxError('invalid-input', `${file}: no episode-start event`);
      const { constraints, memoryLimitMb } = await constraintsOf(start, options.constraints);
      // Loaded here, not at the top: isolated-vm would load for every other subcommand too.
      const { validateTrajectory, validationDivergences } = await import('../validator/validate-trajectory.ts');
      const report = validateTrajectory(constraints, start.tools, events, { memoryLimitMb });
      const skipped = report.totalSteps - report.steps.length;
      if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else printReport(report, constraints, skipped);
      if (options.save) {
        const saved = await saveDivergences(file, 'validate', validationDivergences(events, report), options.constraints);
        if (!options.json) process.stdout.write(`saved ${saved}\n`);
      }
      process.exitCode = report.passed ? EXIT_CODES.ok : EXIT_CODES.failed;
    });
}
