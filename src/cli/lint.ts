import { Command } from 'commander';
import type { LintIssue } from '../lint/index.ts';
import { addSelectionOptions, type SelectionFlags } from './cli-options.ts';
import { EXIT_CODES } from './exit-codes.ts';

/**
 * `sandbox lint <task|suite>`: static checks for conflicting or infeasible constraints, and (unless `--no-reference`)
 * each reference trajectory played through the validators and, for CCTU tasks, against its tools (every subquery solved); exits 1 when any issue is found.
 */
export function lintCommand(): Command {
  const command = new Command('lint')
    .description('Check tasks for conflicting or infeasible constraints (a tool-call max below what the answer needs, JSON-only with a closing period, a round maximum below the dependent steps, …; a min above its max is already refused when the task loads)')
    .argument('<task-or-suite>', 'a task file, a suite directory (episodes/cctu) or a glob')
    .option('--no-reference', 'skip playing each reference trajectory through the validators (static checks only)')
    .option('--json', 'print the issues as JSON');
  return addSelectionOptions(command, { seed: true })
    .action(async (target: string, options: SelectionFlags & { json?: boolean; reference: boolean }) => {
      // Loaded here, not at the top: every other subcommand would pay for them at start-up.
      const { displayPath, loadSuite } = await import('../engine/load-task.ts');
      const { selectTasks } = await import('../engine/select-tasks.ts');
      const { lintTask, referenceIssues } = await import('../lint/index.ts');
      const loaded = selectTasks(await loadSuite(target), options);
      const issues: Array<LintIssue & { file: string }> = [];
      for (const { task, path } of loaded) {
        const found = [...lintTask(task), ...(options.reference ? await referenceIssues(task) : [])];
        issues.push(...found.map((issue) => ({ ...issue, file: displayPath(path) })));
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify(issues, null, 2)}\n`);
      } else {
        for (const issue of issues) {
          const involved = issue.constraints.length > 0 ? ` [${issue.constraints.join(', ')}]` : '';
          process.stdout.write(`${issue.file}: ${issue.kind}${involved}: ${issue.message}\n`);
        }
        const flagged = new Set(issues.map((issue) => issue.taskId)).size;
        process.stdout.write(`${loaded.length} task${loaded.length === 1 ? '' : 's'} checked, ${issues.length} issue${issues.length === 1 ? '' : 's'} in ${flagged} task${flagged === 1 ? '' : 's'}\n`);
      }
      process.exitCode = issues.length > 0 ? EXIT_CODES.failed : EXIT_CODES.ok;
    });
}
