import type { z } from 'zod';

/** Formats a zod path as JSON-path text: `constraints[2].params.max`. */
export function formatIssuePath(issuePath: readonly PropertyKey[]): string {
  let text = '';
  for (const key of issuePath) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text ? `.${String(key)}` : String(key);
  }
  return text || '(root)';
}

/** One line naming the file, the first bad field and what was expected. */
export function describeZodError(file: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `${file}: invalid`;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more issue${error.issues.length > 2 ? 's' : ''})` : '';
  return `${file}: ${formatIssuePath(issue.path)}: ${issue.message.replace(/\s+/g, ' ')}${more}`;
}
