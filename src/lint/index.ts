export { lintTask, type LintIssue } from './lint-task.ts';
export { referenceIssues } from './reference-issues.ts';
