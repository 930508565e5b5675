import { open, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { quote, readJsonSql, stepProjection, type ResultsStore } from '../results/store.ts';
import { eventPageOf, FIRST_PAGE } from './queries.ts';

/** Bytes read from the file's start at most, looking for the first page's lines (at least one line is read whole). */
const MAX_PREFIX = 16 * 1024 * 1024;
const CHUNK = 256 * 1024;

let previews = 0;

/**
 * The first page of an episode that is not indexed yet, read straight from its trajectory (a 127 MB episode takes
 * seconds to index; its page shows its first events meanwhile): the file's first complete lines go through DuckDB's
 * JSON reader with the store's own projection into a table of the steps' columns, on the store's second connection
 * (the first is busy indexing), and the page of events is the one `eventPage` would give once indexed. The header is
 * what the episode-start says; the score, figures and neighbours wait for the index (`indexing: true`). Answers
 * `found: false` when the file's start is not a trajectory's (the index then says why).
 */
export async function episodeFromFile(store: ResultsStore, file: string): Promise<Record<string, unknown>> {
  const prefix = await firstLines(file, FIRST_PAGE);
  if (prefix.length === 0) return { found: false, indexing: true, unreadable: null };
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'viewer-preview-'));
  // a table per preview: two pages asking at once each read their own
  const name = `preview_${++previews}`;
  const table = `temp.${name}`;
  const query = store.queryAside.bind(store);
  try {
    const lines = path.join(scratch, 'first.jsonl');
    await writeFile(lines, prefix);
    await query(`CREATE TEMP TABLE ${name} AS SELECT * FROM steps LIMIT 0`);
    await query(`INSERT INTO ${table} SELECT ${stepProjection(quote(file))} FROM ${readJsonSql([lines])}`);
    const [start] = await query(`SELECT task_id, model, settings ->> '$.enforcement' AS enforcement, CAST(settings ->> '$.repeat' AS INTEGER) AS repeat
      FROM ${table} WHERE seq = 0 AND type = 'episode-start'`);
    if (!start) return { found: false, indexing: true, unreadable: null };
    const events = await eventPageOf(query, table, file, 0, FIRST_PAGE);
    const runDir = path.dirname(file);
    return {
      found: true,
      indexing: true,
      episode: { episode_id: file, run_dir: runDir, file: path.basename(file), ...start, status: 'indexing', reason: null, events: events.length, graded: false },
      events,
      divergences: [],
      savedChecks: [],
      constraints: [],
      checklist: [],
      expected: { available: false, why: 'the episode is being indexed' },
      messageSeqs: [],
      previous: null,
      next: null,
    };
  } catch {
    // a start DuckDB cannot read: the page waits for the index, which records why
    return { found: false, indexing: true, unreadable: null };
  } finally {
    await query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The file's first `count` complete lines (fewer when it has fewer; none past MAX_PREFIX but at least the first). */
async function firstLines(file: string, count: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let length = 0;
    let lines = 0;
    let end = 0;
    for (;;) {
      const chunk = Buffer.alloc(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, length);
      if (bytesRead === 0) break;
      const part = chunk.subarray(0, bytesRead);
      for (let at = part.indexOf(10); at !== -1; at = part.indexOf(10, at + 1)) {
        lines += 1;
        end = length + at + 1;
        if (lines === count) break;
      }
      chunks.push(part);
      length += bytesRead;
      if (lines >= count || (length >= MAX_PREFIX && end > 0)) break;
    }
    return Buffer.concat(chunks).subarray(0, end);
  } finally {
    await handle.close();
  }
}
