// Users' own transcripts: a JSONL, CSV/TSV or Parquet file of speaker turns (and optionally a file of call
// metadata) loaded with DuckDB's own readers into a DuckDB database shaped like the contact-center one
// (transcript_turns, calls, agents), so the transcript index and the transcripts server work on it unchanged.
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { SandboxError } from '../../src/sandbox-error.ts';
import { CALL_COLUMNS, TURN_FIELDS, type TurnField } from './import-fields.ts';
import { sqlString } from './search-filters.ts';

export interface ImportTranscriptsOptions {
  /** The turns file: .jsonl/.ndjson, .csv, .tsv or .parquet. */
  from: string;
  /** Field → source column, for the fields whose column is not named as in TURN_FIELDS. */
  map?: Partial<Record<TurnField, string>>;
  /** Optional call metadata file (same formats), one row per call, columns named as in CALL_COLUMNS. */
  calls?: string;
  /** The DuckDB database to write (replaced when the import succeeds). */
  dbPath: string;
}

export interface BadRow {
  /** 1-based line of the file (header = line 1 for CSV), or 0-based row for Parquet. */
  line: number;
  reason: string;
}

export interface ImportTranscriptsResult {
  dbPath: string;
  turns: number;
  calls: number;
  /** Rows not imported, with where they are and why. */
  bad: BadRow[];
  /** What `line` counts: file lines, or Parquet rows. */
  position: 'line' | 'row';
}

const REQUIRED: TurnField[] = ['call_id', 'text'];

type Format = 'jsonl' | 'csv' | 'tsv' | 'parquet';

function formatOf(file: string): Format {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  if (extension === '.csv' || extension === '.tsv' || extension === '.parquet') return extension.slice(1) as Format;
  throw new SandboxError('invalid-input', `${file}: unknown format "${extension}" (expected .jsonl, .ndjson, .csv, .tsv or .parquet)`);
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Loads the raw rows as VARCHAR columns into table `raw` with a `_pos` column (file line or Parquet row) and
 * records rows the reader itself rejects (malformed CSV lines, invalid JSON lines) in `bad`.
 */
async function loadRaw(connection: DuckDBConnection, file: string, format: Format, bad: BadRow[]): Promise<string[]> {
  const source = sqlString(file);
  if (format === 'parquet') {
    await connection.run(`CREATE TEMP TABLE raw AS SELECT * EXCLUDE (file_row_number), file_row_number AS _pos FROM read_parquet(${source}, file_row_number = true)`);
  } else if (format === 'jsonl') {
    await connection.run(`CREATE TEMP TABLE lines AS
      SELECT _pos, line, CASE WHEN json_valid(line) THEN json_type(line) = 'OBJECT' ELSE false END AS is_object
      FROM (SELECT generate_subscripts(ls, 1) AS _pos, unnest(ls) AS line FROM (SELECT string_split(replace(content, chr(13), ''), chr(10)) AS ls FROM read_text(${source})))
      WHERE trim(line) <> ''`);
    for (const [line] of (await connection.runAndReadAll(`SELECT _pos FROM lines WHERE NOT is_object ORDER BY _pos`)).getRowsJS()) {
      bad.push({ line: Number(line), reason: 'not a JSON object' });
    }
    await connection.run(`CREATE TEMP TABLE objects AS SELECT _pos, CAST(line AS JSON) AS doc FROM lines WHERE is_object`);
    const keys = (await connection.runAndReadAll(`SELECT DISTINCT unnest(json_keys(doc)) AS k FROM objects ORDER BY k`)).getRowsJS().map((row) => String(row[0]));
    const columns = keys.map((key) => `doc->>${sqlString(key)} AS ${ident(key)}`);
    await connection.run(`CREATE TEMP TABLE raw AS SELECT ${[...columns, '_pos'].join(', ')} FROM objects`);
  } else {
    const delimiter = format === 'tsv' ? '\t' : ',';
    await connection.run(`CREATE TEMP TABLE rows AS SELECT * FROM read_csv(${source}, all_varchar = true, header = true, delim = ${sqlString(delimiter)},
      quote = '"', escape = '"', store_rejects = true, rejects_table = 'csv_rejects', rejects_scan = 'csv_reject_scans')`);
    const rejected = (await connection.runAndReadAll(`SELECT line, string_agg(DISTINCT error_type || ': ' || error_message, '; ') FROM csv_rejects GROUP BY line ORDER BY line`)).getRowsJS();
    for (const [line, reason] of rejected) bad.push({ line: Number(line), reason: String(reason).toLowerCase() });
    // Accepted rows keep file order; their lines are the lines after the header that were not rejected (a
    // record with a quoted line break counts as one line: the numbers after it are then approximate).
    const rejectedLines = rejected.map(([line]) => Number(line));
    await connection.run(`CREATE TEMP TABLE raw AS
      WITH numbered AS (SELECT *, row_number() OVER () AS _n FROM rows),
           candidates AS (SELECT l AS line, row_number() OVER (ORDER BY l) AS _n FROM range(2, (SELECT count(*) FROM rows) + ${rejectedLines.length} + 2) r(l)
                          WHERE l NOT IN (${[0, ...rejectedLines].join(', ')}))
      SELECT numbered.* EXCLUDE (_n), candidates.line AS _pos FROM numbered JOIN candidates USING (_n)`);
  }
  const described = await connection.runAndReadAll(`SELECT column_name FROM (DESCRIBE raw)`);
  return described.getRowsJS().map((row) => String(row[0])).filter((name) => name !== '_pos');
}

/**
 * Imports a file of transcript turns into `dbPath` (tables transcript_turns, calls, agents). Rows the reader
 * rejects and rows without a call id or text, or with a start/end/turn that is not a number, are reported in
 * `bad` with their line and not imported; everything else is. Written to a temporary file and renamed over
 * `dbPath`, so a failed import leaves nothing half-written.
 */
export async function importTranscripts(options: ImportTranscriptsOptions): Promise<ImportTranscriptsResult> {
  for (const file of [options.from, options.calls].filter((entry): entry is string => entry !== undefined)) {
    await stat(file).catch((error: unknown) => {
      throw new SandboxError('not-found', `no file at ${file}`, { cause: error });
    });
  }
  const format = formatOf(options.from);
  const columnOf = { ...TURN_FIELDS, ...options.map } as Record<TurnField, string>;
  const work = `${options.dbPath}.importing-${process.pid}`;
  await rm(work, { force: true });
  const instance = await DuckDBInstance.create(work);
  const connection = await instance.connect();
  const bad: BadRow[] = [];
  try {
    const columns = await loadRaw(connection, options.from, format, bad).catch((error: unknown) => {
      if (error instanceof SandboxError) throw error;
      throw new SandboxError('invalid-input', `${options.from}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    });
    const present = new Set(columns);
    for (const field of Object.keys(TURN_FIELDS) as TurnField[]) {
      const explicit = options.map?.[field] !== undefined;
      if ((REQUIRED.includes(field) || explicit) && !present.has(columnOf[field])) {
        throw new SandboxError('invalid-input', `${options.from}: no column "${columnOf[field]}" for ${field}${explicit ? '' : ` (map it with --map ${field}=COLUMN)`}; columns: ${columns.join(', ')}`);
      }
    }
    const value = (field: TurnField) => (present.has(columnOf[field]) ? `nullif(trim(CAST(${ident(columnOf[field])} AS VARCHAR)), '')` : 'NULL');
    await connection.run(`CREATE TEMP TABLE checked AS
      SELECT _pos, ${value('call_id')} AS call_id, ${value('speaker')} AS speaker, ${value('text')} AS text,
             ${value('start')} AS start_raw, ${value('end')} AS end_raw, ${value('turn')} AS turn_raw,
             concat_ws('; ',
               CASE WHEN ${value('call_id')} IS NULL THEN 'no call id (${columnOf.call_id})' END,
               CASE WHEN ${value('text')} IS NULL THEN 'no text (${columnOf.text})' END,
               CASE WHEN ${value('start')} IS NOT NULL AND TRY_CAST(${value('start')} AS DOUBLE) IS NULL THEN 'start (${columnOf.start}) is not a number' END,
               CASE WHEN ${value('end')} IS NOT NULL AND TRY_CAST(${value('end')} AS DOUBLE) IS NULL THEN 'end (${columnOf.end}) is not a number' END,
               CASE WHEN ${value('turn')} IS NOT NULL AND TRY_CAST(${value('turn')} AS INTEGER) IS NULL THEN 'turn (${columnOf.turn}) is not an integer' END) AS problem
      FROM raw`);
    for (const [line, reason] of (await connection.runAndReadAll(`SELECT _pos, problem FROM checked WHERE problem <> '' ORDER BY _pos`)).getRowsJS()) {
      bad.push({ line: Number(line), reason: String(reason) });
    }
    bad.sort((a, b) => a.line - b.line);
    // Turns are numbered per call by the given turn index, else by start time, else by file order.
    await connection.run(`CREATE TABLE transcript_turns AS
      SELECT call_id, (row_number() OVER (PARTITION BY call_id ORDER BY TRY_CAST(turn_raw AS INTEGER) NULLS LAST, TRY_CAST(start_raw AS DOUBLE) NULLS LAST, _pos) - 1)::INTEGER AS turn_index,
             coalesce(speaker, 'unknown') AS speaker, TRY_CAST(start_raw AS DOUBLE) AS start_s, TRY_CAST(end_raw AS DOUBLE) AS end_s, text
      FROM checked WHERE problem = ''`);
    const turns = Number((await connection.runAndReadAll('SELECT count(*) FROM transcript_turns')).getRowsJS()[0]![0]);
    if (turns === 0) throw new SandboxError('invalid-input', `${options.from}: no row could be imported (${bad.length} bad rows, first: ${bad[0] ? `${bad[0].line}: ${bad[0].reason}` : 'the file is empty'})`);
    await writeCalls(connection, options.calls);
    const calls = Number((await connection.runAndReadAll('SELECT count(*) FROM calls')).getRowsJS()[0]![0]);
    await connection.run('CHECKPOINT');
    connection.closeSync();
    instance.closeSync();
    await rename(work, options.dbPath);
    await rm(`${options.dbPath}.wal`, { force: true });
    return { dbPath: options.dbPath, turns, calls, bad, position: format === 'parquet' ? 'row' : 'line' };
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    await rm(work, { force: true });
    await rm(`${work}.wal`, { force: true });
    throw error;
  }
}

/** The calls and agents tables: every call with turns, with the metadata file's columns where it has them. */
async function writeCalls(connection: DuckDBConnection, callsFile: string | undefined): Promise<void> {
  let metadata = new Set<string>();
  if (callsFile) {
    const format = formatOf(callsFile);
    const source = sqlString(callsFile);
    const reader = format === 'parquet' ? `read_parquet(${source})` : format === 'jsonl' ? `read_json(${source}, format = 'newline_delimited')` : `read_csv(${source}, header = true${format === 'tsv' ? `, delim = '\t'` : ''})`;
    try {
      await connection.run(`CREATE TEMP TABLE call_metadata AS SELECT * FROM ${reader}`);
    } catch (error) {
      throw new SandboxError('invalid-input', `${callsFile}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
    metadata = new Set((await connection.runAndReadAll('SELECT column_name FROM (DESCRIBE call_metadata)')).getRowsJS().map((row) => String(row[0])));
    if (!metadata.has('call_id')) throw new SandboxError('invalid-input', `${callsFile}: no call_id column; columns: ${[...metadata].join(', ')}`);
  }
  const column = (name: keyof typeof CALL_COLUMNS) =>
    metadata.has(name) ? `TRY_CAST(m.${name} AS ${CALL_COLUMNS[name]}) AS ${name}` : `CAST(NULL AS ${CALL_COLUMNS[name]}) AS ${name}`;
  await connection.run(`CREATE TABLE calls AS
    SELECT t.call_id, ${(Object.keys(CALL_COLUMNS) as Array<keyof typeof CALL_COLUMNS>).map(column).join(', ')}
    FROM (SELECT DISTINCT call_id FROM transcript_turns) t
    ${callsFile ? 'LEFT JOIN (SELECT DISTINCT ON (CAST(call_id AS VARCHAR)) * FROM call_metadata) m ON CAST(m.call_id AS VARCHAR) = t.call_id' : ''}
    ORDER BY t.call_id`);
  await connection.run(`CREATE TABLE agents AS SELECT agent_id, any_value(team) AS team FROM calls WHERE agent_id IS NOT NULL GROUP BY agent_id ORDER BY agent_id`);
}
