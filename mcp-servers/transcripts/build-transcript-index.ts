import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { SandboxError } from '../../src/sandbox-error.ts';
import { MAX_UTF8_COLUMN_BYTES, tableFromColumns, type ColumnValues } from './arrow-columns.ts';
import { chunkSchema, DEFAULT_CHUNK_TURNS, FILTER_COLUMN_INDEXES, SEARCH_COLUMN, type TranscriptChunk } from './chunk-schema.ts';
import { createEmbedder } from './embed-texts.ts';
import type { EmbeddingsConfig } from './embeddings-config.ts';
import { CHUNKS_TABLE, INDEX_FORMAT_VERSION, writeIndexMeta, type IndexMeta } from './index-meta.ts';
import { writeLexicon } from './index-lexicon.ts';
import { lancedb } from './lancedb.ts';
import { markNegation } from './negation.ts';
import { wordNetExpansions } from './query-expansion.ts';

export interface BuildTranscriptIndexOptions {
  /** The contact-center DuckDB file (tables transcript_turns, calls, agents). */
  dbPath: string;
  /** Directory to write the index to; replaced atomically when the build succeeds. */
  indexPath: string;
  chunkTurns?: number;
  /** When set, every chunk's text is embedded and stored for dense and hybrid search. */
  embeddings?: EmbeddingsConfig;
  /** Called after each batch written, with the chunks written so far. */
  onProgress?: (chunksWritten: number) => void;
  /** Called as each step of the build ends, with its wall seconds (where a build's time goes). */
  onStep?: (step: string, seconds: number) => void;
}

/** Rows handed to LanceDB per write: few, large fragments keep search fast without a compaction pass. */
const WRITE_BATCH_ROWS = 65_536;

/**
 * Groups each call's turns into chunks of `chunkTurns` consecutive turns, the remainder joining the call's last
 * full chunk (so chunks hold chunkTurns..2·chunkTurns−1 turns, fewer only in a call that short): a one-turn tail
 * chunk ("thank you for being a customer") outranked whole passages under BM25's length normalisation. In DuckDB (one pass, streamed), joined
 * with the call's and the agent's metadata. Turns are numbered by position so 0- or 1-based turn indexes both work.
 * No ORDER BY: sorting 100k calls' chunks cost more than the whole FTS build, and nothing needs the order. Per-turn
 * facts travel as one tab-separated string (see `turns` in chunk-schema.ts): converting four list columns row by
 * row in JavaScript was the slowest step of the build.
 */
export function chunkQuery(chunkTurns: number): string {
  if (!Number.isInteger(chunkTurns) || chunkTurns < 1) throw new SandboxError('invalid-input', `chunkTurns must be a positive integer, got ${chunkTurns}`);
  return `
    WITH turns AS (
      SELECT CAST(call_id AS VARCHAR) AS call_id, CAST(turn_index AS INTEGER) AS turn_index, CAST(speaker AS VARCHAR) AS speaker,
             CAST(start_s AS DOUBLE) AS start_s, CAST(end_s AS DOUBLE) AS end_s,
             regexp_replace(CAST(text AS VARCHAR), '[\\r\\n]+', ' ', 'g') AS text,
             (row_number() OVER (PARTITION BY call_id ORDER BY turn_index) - 1) // ${chunkTurns} AS position_chunk,
             count(*) OVER (PARTITION BY call_id) AS call_turns
      FROM transcript_turns
    ), numbered AS (
      SELECT *, least(position_chunk, greatest(0, call_turns // ${chunkTurns} - 1)) AS chunk_no FROM turns
    ), chunks AS (
      SELECT call_id, chunk_no, min(turn_index) AS turn_from, max(turn_index) AS turn_to,
             min(start_s) AS start_s, max(end_s) AS end_s,
             string_agg(text, chr(10) ORDER BY turn_index) AS text,
             string_agg(concat_ws(chr(9), turn_index, speaker, coalesce(CAST(start_s AS VARCHAR), ''), coalesce(CAST(end_s AS VARCHAR), '')), chr(10) ORDER BY turn_index) AS turns
      FROM numbered GROUP BY call_id, chunk_no
    )
    SELECT ch.call_id || ':' || ch.turn_from AS chunk_id, ch.call_id, ch.turn_from, ch.turn_to, ch.start_s, ch.end_s, ch.text,
           ch.turns,
           strftime(c.started_at, '%Y-%m-%d') AS call_date, strftime(c.started_at, '%Y-%m-%dT%H:%M:%S') AS started_at,
           CAST(c.time_zone AS VARCHAR) AS time_zone, CAST(c.queue AS VARCHAR) AS queue, CAST(c.channel AS VARCHAR) AS channel,
           CAST(c.call_driver AS VARCHAR) AS call_driver, CAST(c.agent_id AS VARCHAR) AS agent_id, CAST(a.team AS VARCHAR) AS team,
           CAST(c.resolved AS TINYINT) AS resolved, CAST(c.escalated AS TINYINT) AS escalated
    FROM chunks ch
    LEFT JOIN calls c ON CAST(c.call_id AS VARCHAR) = ch.call_id
    LEFT JOIN agents a ON CAST(a.agent_id AS VARCHAR) = CAST(c.agent_id AS VARCHAR)`;
}

async function column(connection: DuckDBConnection, sql: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowsJS().map((row) => String(row[0]));
}

/** How many turns hold each word (lower case, letters only): the index's vocabulary, for expansion and typos. */
async function wordCounts(connection: DuckDBConnection): Promise<Record<string, number>> {
  const reader = await connection.runAndReadAll(
    `SELECT w, count(*)::INTEGER FROM (SELECT unnest(list_distinct(regexp_extract_all(lower(CAST(text AS VARCHAR)), '[a-z]+'))) AS w FROM transcript_turns) GROUP BY w ORDER BY w`,
  );
  return Object.fromEntries(reader.getRowsJS().map(([word, count]) => [String(word), Number(count)]));
}

async function knownValues(connection: DuckDBConnection): Promise<IndexMeta['known']> {
  const distinct = (expression: string, table: string) =>
    column(connection, `SELECT DISTINCT CAST(${expression} AS VARCHAR) AS v FROM ${table} WHERE ${expression} IS NOT NULL ORDER BY v`);
  const dates = (await connection.runAndReadAll(`SELECT strftime(min(started_at), '%Y-%m-%d'), strftime(max(started_at), '%Y-%m-%d') FROM calls`)).getRowsJS()[0];
  return {
    queues: await distinct('queue', 'calls'),
    timeZones: await distinct('time_zone', 'calls'),
    teams: await distinct('team', 'agents'),
    agentIds: await distinct('agent_id', 'agents'),
    firstDate: dates?.[0] == null ? null : String(dates[0]),
    lastDate: dates?.[1] == null ? null : String(dates[1]),
    exampleCallIds: await column(connection, 'SELECT DISTINCT CAST(call_id AS VARCHAR) AS v FROM transcript_turns ORDER BY v LIMIT 3'),
  };
}

/**
 * Builds the transcript index of a contact-center database: chunks of consecutive turns in a LanceDB table with
 * a native full-text (BM25) index on the text and scalar indexes on every filter column, plus embeddings when an
 * endpoint is configured. Writes to a sibling directory and renames it into place, so a crash never leaves a
 * half-built index where the server would open it.
 */
export async function buildTranscriptIndex(options: BuildTranscriptIndexOptions): Promise<IndexMeta> {
  const { dbPath, indexPath, chunkTurns = DEFAULT_CHUNK_TURNS, onProgress, onStep } = options;
  const started = performance.now();
  let stepStarted = started;
  const step = (name: string) => {
    const now = performance.now();
    onStep?.(name, (now - stepStarted) / 1000);
    stepStarted = now;
  };
  const source = await stat(dbPath).catch((error: unknown) => {
    throw new SandboxError('not-found', `no database at ${dbPath}`, { cause: error });
  });
  const embed = options.embeddings ? createEmbedder(options.embeddings) : undefined;
  const workPath = `${indexPath}.building-${process.pid}`;
  await rm(workPath, { recursive: true, force: true });
  await mkdir(workPath, { recursive: true });

  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const lance = await lancedb.connect(workPath);
  try {
    const known = await knownValues(connection);
    step('known values');
    const result = await connection.stream(chunkQuery(chunkTurns));
    const names = result.columnNames();
    let table: lancedb.Table | undefined;
    let dimensions: number | undefined;
    // Column-wise, as DuckDB hands them out: one array per column for the rows not yet written.
    let pending: Record<string, TranscriptChunk[keyof TranscriptChunk][]> = {};
    let pendingRows = 0;
    let pendingChars = 0;
    let written = 0;
    const calls = new Set<string>();

    const flush = async () => {
      if (pendingRows === 0) return;
      const texts = pending.text as string[];
      pending.search_text = texts.map(markNegation);
      if (embed) {
        const vectors = await embed(texts);
        pending.vector = vectors;
        const length = vectors[0]?.length;
        // embed() checks one call's vectors; a later batch of another length would be cut or padded to the first's
        if (dimensions !== undefined && length !== dimensions) {
          throw new SandboxError('server-error', `the embeddings endpoint returned vectors of ${length} dimensions after vectors of ${dimensions}`);
        }
        dimensions ??= length;
      }
      const batch = tableFromColumns(chunkSchema(dimensions), pending as Record<string, ColumnValues>);
      if (!table) table = await lance.createTable(CHUNKS_TABLE, batch);
      else await table.add(batch);
      written += pendingRows;
      pending = {};
      pendingRows = 0;
      pendingChars = 0;
      onProgress?.(written);
    };

    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      names.forEach((name, i) => {
        const values = chunk!.getColumnValues(i) as TranscriptChunk[keyof TranscriptChunk][];
        const column = (pending[name] ??= []);
        for (const value of values) column.push(value);
      });
      for (const id of chunk.getColumnValues(names.indexOf('call_id'))) calls.add(String(id));
      pendingRows += chunk.rowCount;
      for (const text of chunk.getColumnValues(names.indexOf('text'))) pendingChars += String(text ?? '').length;
      // long turns (a user's own transcripts) fill a batch's text before its rows: flushed well under one column's limit
      if (pendingRows >= WRITE_BATCH_ROWS || pendingChars >= MAX_UTF8_COLUMN_BYTES / 8) await flush();
    }
    await flush();
    step('chunks read and written');
    if (!table) table = await lance.createEmptyTable(CHUNKS_TABLE, chunkSchema());

    if (written > 0) {
      // Positions make "quoted phrases" possible; the searched column is the negation-marked text.
      await table.createIndex(SEARCH_COLUMN, {
        config: lancedb.Index.fts({ withPosition: true, stem: true, removeStopWords: true, lowercase: true, asciiFolding: true }),
      });
      step('full-text index');
      for (const [name, kind] of Object.entries(FILTER_COLUMN_INDEXES)) {
        await table.createIndex(name, { config: kind === 'bitmap' ? lancedb.Index.bitmap() : lancedb.Index.btree() });
        step(`${kind} index ${name}`);
      }
    }
    table.close();
    const vocabulary = await wordCounts(connection);
    step('vocabulary');
    await writeLexicon(workPath, { vocabulary, wordNet: wordNetExpansions(new Set(Object.keys(vocabulary))) });
    step('WordNet lexicon');

    // The build time includes the lexicon (at 1M calls its vocabulary pass is about an eighth of the CPU).
    const meta: IndexMeta = {
      formatVersion: INDEX_FORMAT_VERSION,
      builtAt: new Date().toISOString(),
      source: { dbPath, size: source.size, mtimeMs: source.mtimeMs },
      chunkTurns,
      calls: calls.size,
      chunks: written,
      buildSeconds: (performance.now() - started) / 1000,
      known,
      embeddings: embed && dimensions && options.embeddings ? { model: options.embeddings.model, dimensions } : null,
    };
    await writeIndexMeta(workPath, meta);
    lance.close();
    await rm(indexPath, { recursive: true, force: true });
    await rename(workPath, indexPath);
    return meta;
  } catch (error) {
    lance.close();
    await rm(workPath, { recursive: true, force: true });
    if (error instanceof SandboxError) throw error;
    throw new SandboxError('internal', `building the transcript index of ${dbPath} failed: ${(error as Error).message}`, { cause: error });
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
