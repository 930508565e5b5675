import pg from 'pg';
import { SandboxError } from '../../../src/sandbox-error.ts';
import { ConnectionPool, type BackendOptions, type SqlBackend } from './backend.ts';
import { safeUrl } from './postgres-url.ts';
import { firstKeyword, RowCollector, timedOut } from './collect-rows.ts';
import { CANCELLED, firstLine, type Catalog, type CatalogKey, type CatalogTable, type QueryLimits, type QueryOutcome } from './types.ts';

/** Type OIDs (`pg_type.oid`) whose values have a fixed width: never cut. Everything else is cut inside PostgreSQL. */
const FIXED_WIDTH = new Set([16, 20, 21, 23, 26, 700, 701, 1700, 1082, 1083, 1114, 1184, 1186, 1266, 2950, 790]);
const BYTEA = 17;
/** Values as the other engines give them: integers and numerics as numbers (bigint when past 2^53), dates and times as PostgreSQL's text. */
const PARSERS: Record<number, (text: string) => unknown> = {
  20: (text) => BigInt(text),
  1700: (text) => Number(text),
  1082: (text) => text,
  1114: (text) => text,
  1184: (text) => text,
};
const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => PARSERS[oid] ?? pg.types.getTypeParser(oid, format ?? 'text') } as pg.CustomTypesConfig;
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
/** SQLSTATE 57014 query_canceled: statement_timeout, or pg_cancel_backend. */
const CANCELED = '57014';
/** Rows fetched from the cursor per round trip. */
const FETCH_ROWS = 25;

/** The memory each connection's sorts and hashes may use before spilling (`work_mem`): the budget shared by the connections, at least 1 MB. */
const workMem = (options: BackendOptions) => `${Math.max(1024, Math.floor(options.memoryBytes / options.connections / 4 / 1024))}kB`;

/**
 * Why a role may not be served: any right to change the database (superuser, role or database creation,
 * replication, row-security bypass, CREATE on the database or a schema, INSERT/UPDATE/DELETE/TRUNCATE on a table,
 * membership of a role that reads or writes server files or runs programs). Null when it has none.
 */
const WRITE_RIGHTS_SQL = `
SELECT concat_ws('; ',
  CASE WHEN r.rolsuper THEN 'it is a superuser' END,
  CASE WHEN r.rolcreaterole THEN 'it can create roles' END,
  CASE WHEN r.rolcreatedb THEN 'it can create databases' END,
  CASE WHEN r.rolreplication THEN 'it has REPLICATION' END,
  CASE WHEN r.rolbypassrls THEN 'it bypasses row security' END,
  CASE WHEN has_database_privilege(current_database(), 'CREATE') THEN 'CREATE on the database' END,
  (SELECT 'CREATE on schema ' || string_agg(n.nspname, ', ') FROM pg_namespace n
     WHERE has_schema_privilege(n.oid, 'CREATE') AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'),
  (SELECT 'write rights on ' || string_agg(DISTINCT c.oid::regclass::text, ', ') FROM pg_class c, unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) AS p(privilege)
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace) AND has_table_privilege(c.oid, p.privilege)),
  (SELECT 'member of ' || string_agg(b.rolname, ', ') FROM pg_roles b
     WHERE b.rolname IN ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program', 'pg_write_all_data', 'pg_signal_backend') AND pg_has_role(b.oid, 'MEMBER'))
) AS rights, current_user AS role FROM pg_roles r WHERE r.rolname = current_user`;


/** Clients of the query process: session settings fixed at connection start. */
function connect(url: string, options: BackendOptions): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    application_name: applicationName(process.pid),
    connectionTimeoutMillis: 5_000,
    types,
    // Read-only by default for every transaction; sorts and hashes bounded; a backend whose client went away
    // (the query process killed) notices within a second and stops its query (client_connection_check_interval).
    options: `-c default_transaction_read_only=on -c work_mem=${workMem(options)} -c client_connection_check_interval=1000 -c idle_in_transaction_session_timeout=60000 -c search_path=public`,
  });
  return client.connect().then(() => client);
}

/**
 * PostgreSQL through node-postgres, as locked as DuckDB is. The role must have no right to change anything (refused
 * at open otherwise: the server will not serve a database it could change); every connection starts with
 * `default_transaction_read_only`, and every agent query runs in a `READ ONLY` transaction, as the body of a
 * cursor (`DECLARE … CURSOR FOR`, which takes only a SELECT or VALUES: no COPY, DO, CALL, SET, or any write), sent
 * with the extended protocol (one statement: no `; COMMIT; SET …` after it), under `statement_timeout` (the time
 * left) and `work_mem`; `temp_file_limit` is the server's (superuser) setting. Rows are fetched a few at a time up
 * to the limits and the rest counted by `MOVE FORWARD ALL` without being sent.
 */
export async function openPostgres(url: string, options: BackendOptions): Promise<SqlBackend> {
  let first: pg.Client;
  try {
    first = await connect(url, options);
  } catch (error) {
    throw new SandboxError('server-error', `cannot connect to PostgreSQL at ${safeUrl(url)}: ${firstLine((error as Error).message || String((error as { code?: string }).code ?? error))}`, { cause: error });
  }
  first.on('error', () => undefined);
  const [check] = (await first.query(WRITE_RIGHTS_SQL)).rows as Array<{ rights: string; role: string }>;
  if (check && check.rights !== '') {
    await first.end();
    throw new SandboxError('invalid-input', `refused: the PostgreSQL role ${check.role} at ${safeUrl(url)} can change the database (${check.rights}); serve it with a role that may only SELECT`);
  }
  const pool = new ConnectionPool(async () => {
    const client = await connect(url, options);
    client.on('error', () => undefined);
    return client;
  }, options.connections, first);
  let catalog: Promise<Catalog> | undefined;
  return {
    engine: 'postgres',
    query: (sql, limits, signal) =>
      pool.use(async (client) => {
        if (signal?.aborted) return CANCELLED;
        // The query runs in the database server's process for this connection: cancelled there, by its pid.
        const cancel = () => void cancelBackends(url, 'pid = $1', [(client as unknown as { processID: number }).processID]);
        signal?.addEventListener('abort', cancel, { once: true });
        try {
          const outcome = await runPostgres(client, sql, limits);
          return signal?.aborted ? CANCELLED : outcome;
        } finally {
          signal?.removeEventListener('abort', cancel);
        }
      }),
    catalog: () => (catalog ??= pool.use(postgresCatalog)),
    cancel: () => cancelQueriesOf(url, process.pid),
    async close() {
      await Promise.all(pool.all.map((client) => client.end().catch(() => undefined)));
    },
  };
}

/** The application name of a query process's connections: the server finds them by it to cancel their queries. */
const applicationName = (pid: number) => `agent-sandbox-sql/${pid}`;

/**
 * Cancels (`pg_cancel_backend`) every query of the query process `pid` still running on the server: called when
 * that process was ended for a query that overran, so PostgreSQL stops at once rather than when it next notices its
 * client gone (`client_connection_check_interval`). A role may cancel its own sessions' queries.
 */
export function cancelQueriesOf(url: string, pid: number): Promise<void> {
  return cancelBackends(url, "application_name = $1 AND state <> 'idle'", [applicationName(pid)]);
}

/** `pg_cancel_backend` on the server processes `where` selects in `pg_stat_activity`, from a connection of its own. */
async function cancelBackends(url: string, where: string, parameters: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, application_name: 'agent-sandbox-sql/cancel' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE ${where}`, parameters);
  } catch {
    // The server is gone or refuses: nothing is left running that could be cancelled from here.
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function postgresCatalog(client: pg.Client): Promise<Catalog> {
  const version = (await client.query("SELECT current_setting('server_version') AS v")).rows[0] as { v: string };
  const relations = (
    await client.query(`SELECT c.oid, c.relname AS name, CASE WHEN c.relkind IN ('v', 'm') THEN 'view' ELSE 'table' END AS kind, obj_description(c.oid, 'pg_class') AS description
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname = ANY (current_schemas(false)) AND has_table_privilege(c.oid, 'SELECT') ORDER BY c.relname`)
  ).rows as Array<{ oid: number; name: string; kind: 'table' | 'view'; description: string | null }>;
  const columns = (
    await client.query(`SELECT a.attrelid AS oid, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable, col_description(a.attrelid, a.attnum) AS description
      FROM pg_attribute a WHERE a.attrelid = ANY ($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attrelid, a.attnum`, [relations.map((relation) => relation.oid)])
  ).rows as Array<{ oid: number; name: string; type: string; nullable: boolean; description: string | null }>;
  const keys = (
    await client.query(`SELECT CASE k.contype WHEN 'p' THEN 'PRIMARY KEY' WHEN 'u' THEN 'UNIQUE' ELSE 'FOREIGN KEY' END AS kind, k.conrelid::regclass::text AS "table",
        (SELECT attname FROM pg_attribute WHERE attrelid = k.conrelid AND attnum = k.conkey[1]) AS "column",
        CASE WHEN k.contype = 'f' THEN k.confrelid::regclass::text END AS "referencedTable",
        CASE WHEN k.contype = 'f' THEN (SELECT attname FROM pg_attribute WHERE attrelid = k.confrelid AND attnum = k.confkey[1]) END AS "referencedColumn"
      FROM pg_constraint k WHERE k.contype IN ('p', 'u', 'f') AND cardinality(k.conkey) = 1 AND k.conrelid = ANY ($1::oid[])`, [relations.map((relation) => relation.oid)])
  ).rows as CatalogKey[];
  const tables: CatalogTable[] = [];
  for (const relation of relations) {
    // Exact counts, as DuckDB's are for a read-only table (reltuples is an estimate, -1 before ANALYZE).
    const rows = relation.kind === 'table' ? Number((await client.query(`SELECT count(*) AS n FROM ${quote(relation.name)}`)).rows[0].n) : null;
    tables.push({
      name: relation.name,
      kind: relation.kind,
      rows,
      description: relation.description,
      columns: columns.filter((column) => column.oid === relation.oid).map(({ name, type, nullable, description }) => ({ name, type, nullable, description })),
    });
  }
  return { engine: `PostgreSQL ${version.v}`, tables, keys };
}

const pgError = (error: unknown) => error as { code?: string; message: string };

async function runPostgres(client: pg.Client, sql: string, limits: QueryLimits): Promise<QueryOutcome> {
  const started = performance.now();
  const keyword = firstKeyword(sql);
  if (keyword === undefined) return { ok: false, message: 'The query is empty. Send one SELECT statement.' };
  const body = sql.replace(/[\s;]+$/u, '');
  const left = () => Math.max(1, Math.floor(limits.timeoutMs - (performance.now() - started)));
  // The extended protocol: one statement per call, so the agent's text cannot end this transaction and start another.
  const run = (text: string) => client.query({ text, queryMode: 'extended' } as pg.QueryConfig);
  let countingStopped = false;
  try {
    // Our own statements go together, one round trip each (the simple protocol takes several); the agent's never do.
    await client.query(`BEGIN TRANSACTION READ ONLY; SET LOCAL statement_timeout = ${left()}`);
    if (keyword === 'explain') {
      const result = await run(body);
      const collector = new RowCollector(result.fields.map((field) => ({ name: field.name, type: 'text' })), limits);
      for (const row of result.rows as Array<Record<string, unknown>>) collector.add(Object.values(row));
      return collector.body(false);
    }
    try {
      await run(`DECLARE agent_probe NO SCROLL CURSOR FOR ${body}`);
    } catch (error) {
      const { message } = pgError(error);
      if (/syntax error/iu.test(message) && !['select', 'with', 'values', 'table'].includes(keyword)) {
        return { ok: false, message: `Refused: only SELECT (and EXPLAIN) queries can run here — ${keyword.toUpperCase()} statements are not allowed (the database is read-only).` };
      }
      throw error;
    }
    // FETCH 0 returns no row but the result's columns and their types.
    const [probe] = (await client.query('FETCH 0 FROM agent_probe; CLOSE agent_probe')) as unknown as pg.QueryResult[];
    const fields = probe!.fields;
    const columns = fields.map((field) => ({ name: field.name, type: typeName(field.dataTypeID) }));
    const collector = new RowCollector(columns, limits);
    const refusal = collector.columnsRefusal;
    if (refusal) return refusal;
    // Long values cut inside PostgreSQL (a 500 MB string never crosses the wire); the CTE renames by position.
    const inner = fields.map((_, index) => `c${index}`);
    const cut = fields.map((field, index) =>
      FIXED_WIDTH.has(field.dataTypeID)
        ? inner[index]
        : field.dataTypeID === BYTEA
          ? `substring(${inner[index]} FROM 1 FOR ${Math.ceil(limits.maxCellChars / 2)})`
          : `left(${inner[index]}::text, ${limits.maxCellChars + 1})`,
    );
    await run(
      fields.length === 0
        ? `DECLARE agent_query NO SCROLL CURSOR FOR ${body}`
        : `DECLARE agent_query NO SCROLL CURSOR FOR WITH agent_query(${inner.join(', ')}) AS (\n${body}\n) SELECT ${cut.map((expression, index) => `${expression} AS ${quote(fields[index]!.name)}`).join(', ')} FROM agent_query`,
    );
    while (collector.wanting) {
      const [, batch] = (await client.query({ text: `SET LOCAL statement_timeout = ${left()}; FETCH ${FETCH_ROWS} FROM agent_query`, rowMode: 'array' })) as unknown as pg.QueryResult[];
      for (const row of batch!.rows as unknown[][]) collector.add(row);
      if (batch!.rows.length < FETCH_ROWS) return collector.body(false);
    }
    try {
      // The rows past those kept are counted where they are: MOVE's command tag says how many, none is sent.
      const [, moved] = (await client.query(`SET LOCAL statement_timeout = ${left()}; MOVE FORWARD ALL IN agent_query`)) as unknown as pg.QueryResult[];
      collector.total += moved!.rowCount ?? 0;
    } catch (error) {
      if (pgError(error).code !== CANCELED) throw error;
      countingStopped = true;
    }
    return collector.body(countingStopped);
  } catch (error) {
    const { code, message } = pgError(error);
    if (code === CANCELED) return timedOut(limits);
    if (code === '53200' || code === '53100' || /temporary file size exceeds/iu.test(message)) {
      return { ok: false, message: `The query ran out of its memory or temporary-file allowance: ${firstLine(message)} Aggregate or filter before joining.` };
    }
    if (code === '42501') return { ok: false, message: `${firstLine(message)} (this role may only read the tables: no host files, programs or other servers)` };
    if (code === '25006') return { ok: false, message: `Refused: ${firstLine(message)} (the database is read-only).` };
    return { ok: false, message: firstLine(message) };
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}

/** A type OID as a name (the common ones; others by number, as `oid 1234`). */
function typeName(oid: number): string {
  const names: Record<number, string> = {
    16: 'boolean', 17: 'bytea', 18: 'char', 19: 'name', 20: 'bigint', 21: 'smallint', 23: 'integer', 25: 'text', 26: 'oid', 114: 'json', 700: 'real', 701: 'double precision',
    1042: 'character', 1043: 'character varying', 1082: 'date', 1083: 'time', 1114: 'timestamp', 1184: 'timestamp with time zone', 1186: 'interval', 1700: 'numeric', 2950: 'uuid', 3802: 'jsonb',
  };
  return names[oid] ?? `oid ${oid}`;
}
