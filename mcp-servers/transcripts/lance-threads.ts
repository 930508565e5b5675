// Side-effect module: must be evaluated before '@lancedb/lancedb' loads (see lancedb.ts for why).
/** Thread count given to Lance when the environment does not choose one. */
export const DEFAULT_LANCE_CPU_THREADS = '8';

process.env.LANCE_CPU_THREADS ??= DEFAULT_LANCE_CPU_THREADS;
