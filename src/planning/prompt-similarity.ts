import { stripPlaceholders } from './placeholders.ts';

/**
 * Character-trigram cosine similarity of two step prompts, in 0..1.
 *
 * Why this measure: it is deterministic and fast (thousands of comparisons per millisecond), it tolerates the
 * surface variation planners produce (plural/singular, "agent's"/"agents", reordered clauses, small typos) better
 * than exact token overlap, and it still separates prompts about different things because the contact-center
 * vocabulary (queue, CSAT, transfers, sentiment…) dominates the n-grams. Placeholders "(k)" are removed first:
 * step numbering legitimately differs between two equivalent plans.
 */
export function promptSimilarity(left: string, right: string): number {
  return cosine(trigramProfile(left), trigramProfile(right));
}

/** The trigram count profile of a prompt: lower-cased, punctuation folded to spaces, each word padded by a space. */
export function trigramProfile(prompt: string): Map<string, number> {
  const words = stripPlaceholders(prompt)
    .toLowerCase()
    .replace(/[^a-z0-9%<>=.]+/g, ' ')
    .replace(/\.(?!\d)/g, ' ')
    .split(' ')
    .filter((word) => word.length > 0);
  const profile = new Map<string, number>();
  for (const word of words) {
    const padded = ` ${word} `;
    for (let index = 0; index + 3 <= padded.length; index += 1) {
      const gram = padded.slice(index, index + 3);
      profile.set(gram, (profile.get(gram) ?? 0) + 1);
    }
  }
  return profile;
}

function cosine(left: Map<string, number>, right: Map<string, number>): number {
  if (left.size === 0 || right.size === 0) return 0;
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (const [gram, count] of left) {
    leftNorm += count * count;
    const other = right.get(gram);
    if (other !== undefined) dot += count * other;
  }
  for (const count of right.values()) rightNorm += count * count;
  return dot / Math.sqrt(leftNorm * rightNorm);
}
