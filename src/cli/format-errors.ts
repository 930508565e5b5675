import { pc } from './colors.ts';

/** The distinct reasons episodes ended in `error`, one line each with its count: `9 × model … needs OPENAI_API_KEY`. */
export function formatErrorReasons(errors: ReadonlyArray<{ reason: string; count: number }>): string {
  const total = errors.reduce((sum, { count }) => sum + count, 0);
  return [pc.red(pc.bold(`${total} episode${total === 1 ? '' : 's'} ended in error:`)), ...errors.map(({ reason, count }) => `  ${count} × ${reason}`)].join('\n');
}
