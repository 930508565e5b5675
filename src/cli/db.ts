import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { DATABASES, databasePath } from '../../databases/index.ts';
import { CALL_COLUMNS, parseFieldMap, TURN_FIELDS, type TurnField } from '../../mcp-servers/transcripts/import-fields.ts';
import { SandboxError } from '../sandbox-error.ts';
import { UsageError } from './usage-error.ts';
import { isPostgresUrl } from '../../mcp-servers/sql/backends/engine.ts';
import { safeUrl } from '../../mcp-servers/sql/backends/postgres-url.ts';

const integer = (name: string) => (value: string) => {
  const parsed = Number(value.replaceAll('_', ''));
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
  return parsed;
};

const engineChoice = (value: string) => {
  if (value !== 'duckdb' && value !== 'sqlite' && value !== 'postgres') throw new InvalidArgumentError('--engine must be duckdb, sqlite or postgres');
  return value;
};

/**
 * `db build --engine sqlite|postgres`: the DuckDB database built into a temporary folder as usual, then copied
 * (tables, rows, comments, keys) into a new SQLite file or an empty PostgreSQL database.
 */
async function buildOnEngine(name: string, engine: 'sqlite' | 'postgres', options: { calls?: number; seed?: number; out?: string }): Promise<void> {
  const isUrl = isPostgresUrl(options.out ?? '');
  if (engine === 'postgres' && !isUrl) throw new UsageError('--engine postgres needs --out postgres://USER@HOST:PORT/DATABASE (an empty database the user may create tables in)');
  if (engine === 'sqlite' && isUrl) throw new UsageError('--engine sqlite writes a file: give --out a path');
  const out = engine === 'postgres' ? options.out! : path.resolve(options.out ?? databasePath(name, { calls: options.calls, seed: options.seed }).replace(/\.duckdb$/u, '.sqlite'));
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'sandbox-db-'));
  try {
    const started = performance.now();
    const source = path.join(scratch, `${name}.duckdb`);
    await DATABASES[name]!.build(source, { calls: options.calls, seed: options.seed });
    if (engine === 'sqlite') await mkdir(path.dirname(out), { recursive: true });
    const { copyDatabase } = await import('../../mcp-servers/sql/backends/copy-database.ts');
    const rows = await copyDatabase(source, engine === 'sqlite' ? { engine, file: out } : { engine, url: out });
    const shown = engine === 'postgres' ? safeUrl(out) : out;
    process.stdout.write(`built ${shown} (${engine}) in ${((performance.now() - started) / 1000).toFixed(1)} s (${Object.entries(rows).map(([table, count]) => `${table} ${count}`).join(', ')})\n`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** `sandbox db build <name>`, `sandbox db list` (the seeded database generators) and `sandbox db import-transcripts`. */
export function dbCommand(): Command {
  // exitOverride before the subcommands are made, so they inherit it: their usage errors then exit 2 like any other.
  const command = new Command('db').description('Build the seeded databases the SQL and transcripts servers serve, or import your own transcripts').exitOverride();
  command
    .command('list')
    .description('List the database generators, and which of their databases are built, where, and how large')
    .action(async () => {
      for (const [name, generator] of Object.entries(DATABASES)) {
        process.stdout.write(`${name.padEnd(18)} ${generator.description}\n`);
        const standard = databasePath(name);
        // every size and seed built under the data directory: <name>[-<calls>][-s<seed>].duckdb (databasePath)
        const pattern = new RegExp(`^${name}(-\\d+)?(-s\\d+)?\\.duckdb$`);
        const built = (await readdir(path.dirname(standard)).catch(() => [] as string[])).filter((file) => pattern.test(file)).sort();
        if (built.length === 0) process.stdout.write(`${''.padEnd(18)} not built: tasks build it on first use at ${standard} (or: sandbox db build ${name})\n`);
        for (const file of built) {
          const full = path.join(path.dirname(standard), file);
          process.stdout.write(`${''.padEnd(18)} built: ${full} (${megabytes((await stat(full)).size)})${full === standard ? '' : ' (another size or seed)'}\n`);
        }
      }
    });
  command
    .command('build')
    .description('Build a database (replaces the file); the default size takes seconds')
    .argument('<name>', `generator: ${Object.keys(DATABASES).join(', ')}`)
    .option('--calls <n>', 'size: number of calls', integer('--calls'))
    .option('--seed <s>', 'random seed', integer('--seed'))
    .option('--out <path>', 'output file, or for --engine postgres the postgres:// URL of an empty database (default: the path ensureDatabase uses under the data directory)')
    .option('--engine <engine>', 'duckdb (default), sqlite, or postgres (needs --out postgres://…)', engineChoice)
    .option('--no-index', 'contact-center: skip the transcript index (the transcripts server builds it on first use)')
    .action(async (name: string, options: { calls?: number; seed?: number; out?: string; index: boolean; engine?: 'duckdb' | 'sqlite' | 'postgres' }) => {
      const generator = DATABASES[name];
      if (!generator) throw new SandboxError('not-found', `no database generator named "${name}" (known: ${Object.keys(DATABASES).join(', ')})`);
      if (options.engine === 'sqlite' || options.engine === 'postgres') {
        await buildOnEngine(name, options.engine, options);
        return;
      }
      const out = path.resolve(options.out ?? databasePath(name, { calls: options.calls, seed: options.seed }));
      await mkdir(path.dirname(out), { recursive: true });
      const started = performance.now();
      const result = (await generator.build(out, { calls: options.calls, seed: options.seed })) as { rows?: Record<string, number> } | undefined;
      const rows = result?.rows ? ` (${Object.entries(result.rows).map(([table, count]) => `${table} ${count}`).join(', ')})` : '';
      process.stdout.write(`built ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s${rows}\n`);
      if (name === 'contact-center' && options.index) {
        // The transcripts server's index is built with the database (embeddings too when SANDBOX_EMBEDDINGS_* is set).
        const transcripts = await import('../../mcp-servers/transcripts/index.ts');
        const indexPath = transcripts.transcriptIndexPath(out);
        const meta = await transcripts.buildTranscriptIndex({ dbPath: out, indexPath, embeddings: transcripts.embeddingsFromEnv() });
        process.stdout.write(`built ${indexPath} in ${meta.buildSeconds.toFixed(1)} s (${meta.chunks} chunks of ${meta.calls} calls${meta.embeddings ? `, ${meta.embeddings.model} embeddings` : ''})\n`);
      }
    });
  command
    .command('import-transcripts')
    .description('Load your own transcripts (one row per speaker turn) into a DuckDB database and build its transcript index')
    .requiredOption('--from <file>', 'turns file: .jsonl/.ndjson, .csv, .tsv or .parquet')
    .option('--map <pairs>', `field=column pairs for columns not named ${Object.entries(TURN_FIELDS).map(([field, column]) => (field === column ? field : `${field}=${column}`)).join(', ')} (call_id and text are required)`, fieldMap)
    .option('--calls <file>', `call metadata for filters, one row per call: call_id and any of ${Object.keys(CALL_COLUMNS).join(', ')}`)
    .requiredOption('--db <file>', 'the DuckDB database to write (replaced); serve it with `sandbox serve --server transcripts --db <file>`')
    .option('--strict', 'import nothing when any row is bad (exit 4)')
    .option('--no-index', 'skip the transcript index (the transcripts server builds it on first use)')
    .action(async (options: { from: string; map?: Partial<Record<TurnField, string>>; calls?: string; db: string; strict?: boolean; index: boolean }) => {
      const dbPath = path.resolve(options.db);
      await mkdir(path.dirname(dbPath), { recursive: true });
      const { importTranscripts } = await import('../../mcp-servers/transcripts/import-transcripts.ts');
      const result = await importTranscripts({ from: options.from, map: options.map, calls: options.calls, dbPath: options.strict ? `${dbPath}.strict-check` : dbPath });
      for (const row of result.bad.slice(0, MAX_BAD_ROWS_SHOWN)) process.stderr.write(`${options.from}:${result.position} ${row.line}: ${row.reason}\n`);
      if (result.bad.length > MAX_BAD_ROWS_SHOWN) process.stderr.write(`… and ${result.bad.length - MAX_BAD_ROWS_SHOWN} more bad rows\n`);
      if (options.strict) {
        if (result.bad.length > 0) {
          await rm(result.dbPath, { force: true });
          throw new SandboxError('invalid-input', `${options.from}: ${result.bad.length} bad rows (listed above); nothing imported (--strict)`);
        }
        await rename(result.dbPath, dbPath);
      }
      process.stdout.write(`imported ${result.turns} turns of ${result.calls} calls into ${dbPath}${result.bad.length ? `; skipped ${result.bad.length} bad rows (listed on stderr)` : ''}\n`);
      if (options.index) {
        const transcripts = await import('../../mcp-servers/transcripts/index.ts');
        const indexPath = transcripts.transcriptIndexPath(dbPath);
        const meta = await transcripts.buildTranscriptIndex({ dbPath, indexPath, embeddings: transcripts.embeddingsFromEnv() });
        process.stdout.write(`built ${indexPath} in ${meta.buildSeconds.toFixed(1)} s (${meta.chunks} chunks of ${meta.calls} calls${meta.embeddings ? `, ${meta.embeddings.model} embeddings` : ''})\n`);
      }
    });
  return command;
}

/** Bad rows printed one per line; the rest are counted. */
const MAX_BAD_ROWS_SHOWN = 50;

function fieldMap(value: string): Partial<Record<TurnField, string>> {
  try {
    return parseFieldMap(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message.replace(/^--map: /, ''));
  }
}
