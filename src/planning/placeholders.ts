/** A reference to an earlier step's output inside a prompt: "(k)" with k a step id. */
const PLACEHOLDER = /\((\d+)\)/g;

/** The step ids a prompt refers to through "(k)" placeholders, in order of first appearance, without repeats. */
export function placeholdersOf(prompt: string): number[] {
  const ids: number[] = [];
  for (const match of prompt.matchAll(PLACEHOLDER)) {
    const id = Number(match[1]);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * Replaces each "(k)" with `values(k)`; placeholders `values` does not know (returns undefined) stay as written,
 * so a dangling reference remains visible in the executed prompt instead of silently vanishing.
 */
export function fillPlaceholders(prompt: string, values: (id: number) => string | undefined): string {
  return prompt.replace(PLACEHOLDER, (whole, digits: string) => values(Number(digits)) ?? whole);
}

/** The prompt without its placeholders: what prompt similarity compares (step numbering differs between plans). */
export function stripPlaceholders(prompt: string): string {
  return prompt.replace(PLACEHOLDER, ' ');
}
