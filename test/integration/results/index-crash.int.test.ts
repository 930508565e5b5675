import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexRuns, openStore } from '../../../src/results/store.ts';
import { writeRun } from './write-run.ts';

/**
 * An index that stops part-way (the process killed or crashed between two of its statements, each committed on its
 * own) leaves nothing half-written that the next index would keep: the files it had not finished are read again,
 * each episode is there once, with every event once. The stop is made where it hurt: after a part's events were
 * written, before the files were recorded as read (DuckDB's appender refuses the `files` rows there, as if the
 * process had died; the statements before it are committed as they would be).
 */

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'index-crash-'));
  await writeRun(path.join(root, 'runs', 'crash'), { model: 'reference' }, ['A', 'B', 'C'].map((taskId, index) => ({ taskId, repeat: 0, passed: index !== 1, usage: [{}, {}] })));
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** Makes the connection fail at the first `files` append after events were written to `steps` (a crash there). */
function crashAfterSteps(connection: DuckDBConnection): () => void {
  const run = connection.run.bind(connection);
  const createAppender = connection.createAppender.bind(connection);
  let stepsWritten = false;
  connection.run = ((sql: string, ...rest: unknown[]) => {
    if (/^\s*INSERT INTO steps/.test(sql)) stepsWritten = true;
    return (run as (...args: unknown[]) => ReturnType<DuckDBConnection['run']>)(sql, ...rest);
  }) as DuckDBConnection['run'];
  connection.createAppender = ((table: string, ...rest: unknown[]) => {
    if (table === 'files' && stepsWritten) throw new Error('killed');
    return (createAppender as (...args: unknown[]) => ReturnType<DuckDBConnection['createAppender']>)(table, ...rest);
  }) as DuckDBConnection['createAppender'];
  return () => {
    connection.run = run;
    connection.createAppender = createAppender;
  };
}

describe('an index stopped part-way', () => {
  it('is finished by the next index, with no file unreadable and no event twice', async () => {
    const store = await openStore(':memory:');
    try {
      const restore = crashAfterSteps(store.connection);
      await expect(indexRuns(store, [path.join(root, 'runs')])).rejects.toThrow('killed');
      restore();
      const summary = await indexRuns(store, [path.join(root, 'runs')]);
      expect(summary.unreadable.map((file) => file.reason)).toEqual([]);
      const [counts] = await store.query(`SELECT CAST(count(*) AS INTEGER) AS episodes, CAST(sum(events) AS INTEGER) AS events,
        CAST((SELECT count(*) FROM steps) AS INTEGER) AS steps, CAST((SELECT count(DISTINCT (episode_id, seq)) FROM steps) AS INTEGER) AS distinct_steps FROM episodes`);
      // writeRun's episode with two model calls: start, response, check, call, result, response, end
      expect(counts).toEqual({ episodes: 3, events: 21, steps: 21, distinct_steps: 21 });
      const [stats] = await store.query('SELECT episodes, graded, round(pass_rate, 4) AS pass_rate FROM run_stats');
      expect(stats).toEqual({ episodes: 3, graded: 3, pass_rate: 0.6667 });
    } finally {
      store.close();
    }
  });
});
