/** A seeded pseudo-random source (mulberry32): the same seed gives the same worlds and suites everywhere. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  shuffle<T>(items: readonly T[]): T[];
  /** `count` distinct items (fewer if there are not enough). */
  sample<T>(items: readonly T[], count: number): T[];
  /** An item chosen with the given weights. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T;
}

/** Creates a seeded random source; `salt` derives independent streams from one seed. */
export function createRandom(seed: number, salt = ''): Random {
  let state = (seed >>> 0) ^ 0x9e3779b9;
  for (const char of salt) state = Math.imul(state ^ char.charCodeAt(0), 0x85ebca6b) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    chance: (probability) => next() < probability,
    shuffle: (items) => {
      const copy = [...items];
      for (let index = copy.length - 1; index > 0; index -= 1) {
        const other = Math.floor(next() * (index + 1));
        [copy[index], copy[other]] = [copy[other] as (typeof copy)[number], copy[index] as (typeof copy)[number]];
      }
      return copy;
    },
    sample: (items, count) => random.shuffle(items).slice(0, count),
    weighted: (entries) => {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [value, weight] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return (entries[entries.length - 1] as readonly [(typeof entries)[number][0], number])[0];
    },
  };
  return random;
}
