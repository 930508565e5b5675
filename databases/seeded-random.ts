/**
 * The one seeded pseudo-random source of the project (mulberry32): the same seed gives the same databases, worlds,
 * suites and samples on every machine. Every committed suite was generated through it, so a change to any draw here
 * changes them: regenerate them and check `git diff` (episodes/*-generator/README.md says how).
 *
 * Two ways to seed it, each kept because committed artifacts depend on it:
 * - `new SeededRandom(seed)` starts from the seed itself (the databases, the plan suite, `--sample --seed`);
 * - `SeededRandom.stream(seed, salt)` derives an independent stream per `salt` from one seed (the CCTU worlds and suite).
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** An independent stream for `salt` derived from `seed` (an empty salt is a stream of its own too). */
  static stream(seed: number, salt = ''): SeededRandom {
    let state = (seed >>> 0) ^ 0x9e3779b9;
    for (const char of salt) state = Math.imul(state ^ char.charCodeAt(0), 0x85ebca6b) >>> 0;
    return new SeededRandom(state);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with the given probability. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** A normally distributed float (Box–Muller). */
  normal(mean: number, std: number): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return mean + std * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** One item; an empty list is a programming error. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  /** A shuffled copy (Fisher–Yates from the end). `shuffle(items).slice(0, n)` is a sample drawn this way. */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let index = copy.length - 1; index > 0; index -= 1) {
      const other = Math.floor(this.next() * (index + 1));
      [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
    }
    return copy;
  }

  /** `count` distinct items (fewer if there are not enough), drawn one at a time, in the order drawn. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const chosen: T[] = [];
    while (chosen.length < count && pool.length > 0) chosen.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0] as T);
    return chosen;
  }
}
