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
  return cosine(cachedProfile(left), cachedProfile(right));
}

interface Profile {
  grams: Map<string, number>;
  norm: number;
}

/** Profiles by prompt: evaluating a suite compares the same reference prompts over and over. Bounded: cleared when full. */
const profiles = new Map<string, Profile>();
const MAX_CACHED_PROFILES = 20_000;

/** Empties the profile cache: what a cold evaluation (prompts never seen before) starts from; the benchmark uses it. */
export function clearSimilarityCache(): void {
  profiles.clear();
}

function cachedProfile(prompt: string): Profile {
  let profile = profiles.get(prompt);
  if (!profile) {
    const grams = trigramProfile(prompt);
    let norm = 0;
    for (const count of grams.values()) norm += count * count;
    profile = { grams, norm: Math.sqrt(norm) };
    if (profiles.size >= MAX_CACHED_PROFILES) profiles.clear();
    profiles.set(prompt, profile);
  }
  return profile;
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

function cosine(left: Profile, right: Profile): number {
  if (left.norm === 0 || right.norm === 0) return 0;
  const [small, large] = left.grams.size <= right.grams.size ? [left.grams, right.grams] : [right.grams, left.grams];
  let dot = 0;
  for (const [gram, count] of small) {
    const other = large.get(gram);
    if (other !== undefined) dot += count * other;
  }
  return dot / (left.norm * right.norm);
}
