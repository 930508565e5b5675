import type { Divergence } from '../schemas/divergence.ts';
import { pc } from './colors.ts';

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** The divergences of a replay (`sandbox replay`, a fork's replayed prefix), one block each, or "no divergence". */
export function formatDivergences(divergences: readonly Divergence[]): string {
  if (divergences.length === 0) return `${pc.green('no divergence')}\n`;
  return divergences
    .map((divergence) => `${pc.red('divergence')} [${divergence.kind}] event ${divergence.seq}: ${divergence.detail}\n  recorded: ${short(divergence.recorded)}\n  replayed: ${short(divergence.replayed)}\n`)
    .join('');
}
