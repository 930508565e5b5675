import type { RunReportData } from './collect.ts';

function xml(text: unknown): string {
  // characters XML 1.0 cannot hold at all are dropped; the five specials escaped
  return String(text ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/**
 * JUnit XML: one testsuite for the run, one testcase per episode (classname = task, name = task#repeat). A graded
 * episode that did not pass is a <failure>; an episode that ended in error is an <error>; an episode not graded
 * (no score) or still running is <skipped>, never a pass.
 */
export function junitReport(data: RunReportData): string {
  const run = data.detail.run as Record<string, unknown>;
  const rows = data.episodes.rows;
  const failures = rows.filter((row) => row.status !== 'error' && row.graded && row.passed === false).length;
  const errors = rows.filter((row) => row.status === 'error').length;
  const skipped = rows.filter((row) => row.status !== 'error' && !row.graded).length;
  const seconds = (row: Record<string, unknown>) => (typeof row.duration_ms === 'number' ? row.duration_ms / 1000 : 0).toFixed(3);
  const cases = rows.map((row) => {
    const open = `    <testcase classname="${xml(row.task_id)}" name="${xml(`${row.task_id}#${row.repeat}`)}" time="${seconds(row)}">`;
    let body = '';
    if (row.status === 'error') body = `<error message="${xml(row.reason)}" type="error">${xml(row.reason)}</error>`;
    else if (!row.graded) body = `<skipped message="${xml(row.grade_error ?? (row.status === 'running' ? 'still running' : 'not graded'))}"/>`;
    else if (row.passed === false) {
      const detail = [`status ${row.status}: ${row.reason ?? ''}`, row.violated_categories ? `violated: ${row.violated_categories}` : '', row.sr !== null && row.sr !== undefined ? `SR ${row.sr} PSR ${row.psr}` : '', row.accuracy !== null && row.accuracy !== undefined ? `accuracy ${row.accuracy}` : ''].filter(Boolean).join('\n');
      body = `<failure message="${xml(`${row.task_id}#${row.repeat} did not pass`)}" type="failed">${xml(detail)}</failure>`;
    }
    return body ? `${open}\n      ${body}\n    </testcase>` : `${open}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sandbox" tests="${rows.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    `  <testsuite name="${xml(run.name)}" tests="${rows.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" timestamp="${xml(run.started_at ?? '')}">`,
    `    <properties><property name="model" value="${xml(run.model)}"/><property name="suite" value="${xml(run.suite)}"/><property name="enforcement" value="${xml(run.enforcement)}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
