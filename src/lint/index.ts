export { lintTask, type LintIssue } from './lint-task.ts';
