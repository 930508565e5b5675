import type { Filter, FrameOutcome } from './step-frame.ts';
import { parseStepFrame } from './step-frame.ts';
import { renderSql, type RenderOutcome, type UpstreamResult } from './render-sql.ts';
import type { SqlCatalog } from './sql-catalog.ts';

const sameFilter = (left: Filter, right: Filter): boolean => JSON.stringify(left) === JSON.stringify(right);

/** Where a comparison's second side starts: "… against …", or "… with its other calls / the other … / the rest". */
const SECOND_SIDE = / against | with (?=(?:its|their) other\b|the other\b|the rest\b|all other\b|those\b)/i;

/**
 * A step's frame from its words. A comparison is read as two sides: the first side's filters that the second shares
 * are the scope; the rest set the first side apart ("its other calls": the entity's calls are the scope); filters
 * only the second side has make it a side of its own.
 */
export function frameOfStep(prompt: string, catalog: SqlCatalog, tool: 'T2S' | 'RAG' = 'T2S'): FrameOutcome {
  const split = tool === 'T2S' && /^\s*compare\b/i.test(prompt) ? SECOND_SIDE.exec(prompt) : null;
  if (!split) return parseStepFrame(prompt, catalog, tool);
  const first = parseStepFrame(prompt.slice(0, split.index), catalog, tool);
  if (!first.ok) return first;
  const secondText = prompt.slice(split.index + split[0].length);
  const second = parseStepFrame(secondText, catalog, tool, true);
  if (!second.ok) return second;
  const frame = { ...first.frame, inputs: [...new Set([...first.frame.inputs, ...second.frame.inputs])].sort((a, b) => a - b) };
  if (/^\s*(?:its|their) other\b|^\s*the rest\b/i.test(secondText)) {
    frame.filters = first.frame.filters.filter((filter) => filter.value?.kind === 'step');
    frame.condition = first.frame.filters.filter((filter) => filter.value?.kind !== 'step');
  } else {
    frame.filters = first.frame.filters.filter((filter) => second.frame.filters.some((other) => sameFilter(filter, other)));
    frame.condition = first.frame.filters.filter((filter) => !frame.filters.some((other) => sameFilter(filter, other)));
    const own = second.frame.filters.filter((filter) => !frame.filters.some((other) => sameFilter(filter, other)));
    if (own.length > 0) frame.otherCondition = own;
  }
  return { ok: true, frame };
}

/** The offline text-to-SQL: the step's words → frame → SQL with upstream values bound, or the reason it cannot be translated. */
export function translateStep(prompt: string, catalog: SqlCatalog, upstream: ReadonlyMap<number, UpstreamResult>): RenderOutcome {
  const parsed = frameOfStep(prompt, catalog);
  if (!parsed.ok) return parsed;
  const missing = parsed.frame.inputs.filter((step) => !upstream.has(step));
  if (missing.length > 0) return { ok: false, reason: `cannot translate: the step refers to step ${missing.join(', ')}, which it does not depend on` };
  return renderSql(parsed.frame, catalog, upstream);
}
