import type { Usage } from '../schemas/message.ts';

/** US$ per million tokens. */
export interface Price {
  input: number;
  output: number;
}

/**
 * List prices (standard tier, no batch or cache discounts), US$ per million input / output tokens.
 * Prices of openai.com/api/pricing and anthropic.com/pricing as they stood in late November 2025 (the newest row,
 * claude-opus-4-5, was published 2025-11-24). Written 2026-11-29 on a machine without web access, so they could not be
 * re-read that day: check them before quoting a cost. A model missing here gets no cost (unknown), never 0.
 */
export const PRICES: Readonly<Record<'openai' | 'anthropic', Readonly<Record<string, Price>>>> = {
  openai: {
    'gpt-5': { input: 1.25, output: 10 },
    'gpt-5-mini': { input: 0.25, output: 2 },
    'gpt-5-nano': { input: 0.05, output: 0.4 },
    'gpt-4.1': { input: 2, output: 8 },
    'gpt-4.1-mini': { input: 0.4, output: 1.6 },
    'gpt-4.1-nano': { input: 0.1, output: 0.4 },
    'gpt-4o': { input: 2.5, output: 10 },
    'gpt-4o-mini': { input: 0.15, output: 0.6 },
    o3: { input: 2, output: 8 },
    'o4-mini': { input: 1.1, output: 4.4 },
  },
  anthropic: {
    'claude-opus-4-5': { input: 5, output: 25 },
    'claude-opus-4-1': { input: 15, output: 75 },
    'claude-opus-4': { input: 15, output: 75 },
    'claude-sonnet-4-5': { input: 3, output: 15 },
    'claude-sonnet-4': { input: 3, output: 15 },
    'claude-haiku-4-5': { input: 1, output: 5 },
    'claude-3-7-sonnet': { input: 3, output: 15 },
    'claude-3-5-haiku': { input: 0.8, output: 4 },
  },
};

// A dated snapshot (`gpt-4o-2024-08-06`, `claude-sonnet-4-5-20250929`) or `-latest` alias costs what its family costs.
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * The price of a model, or undefined when it is not listed (then its cost is unknown).
 * Only the providers' own endpoints are priced: an `openai-compatible` server sets its own (often zero) price.
 */
export function lookupPrice(provider: string, model: string): Price | undefined {
  const table = (PRICES as Record<string, Record<string, Price> | undefined>)[provider];
  if (!table) return undefined;
  return table[model] ?? table[model.replace(SNAPSHOT_SUFFIX, '')];
}

/** Cost in US$ of one call; undefined when the price or either token count is unknown. */
export function costOf(price: Price | undefined, usage: Pick<Usage, 'inputTokens' | 'outputTokens'>): number | undefined {
  if (!price || usage.inputTokens === undefined || usage.outputTokens === undefined) return undefined;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}
