import { DuckDBInstance } from '@duckdb/node-api';
import { SandboxError } from '../../../src/sandbox-error.ts';
import { ACCOUNT_TABLE_NAMES } from './build-accounts.ts';

/** One table's rows of a slice, as DuckDB's JSON reading gives them (decimals and dates as text). */
export type SliceRow = Record<string, string | number | boolean | null>;
export type AccountTable = (typeof ACCOUNT_TABLE_NAMES)[number];

/**
 * One customer's part of the `accounts` schema: their account, invoices, credits, tickets, appointments and
 * transfers, the outages of their region and the whole plan catalogue. What a service episode copies and changes.
 */
export interface AccountSlice {
  customerId: string;
  region: string;
  tables: Record<AccountTable, SliceRow[]>;
}

/**
 * Reads a customer's slice from a built contact-center database (read-only). A customer without an account, or a
 * database without the `accounts` schema (built before it existed: rebuild it with `sandbox db build`), is `not-found`.
 */
export async function readAccountSlice(dbPath: string, customerId: string): Promise<AccountSlice> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const read = async (sql: string, value: string): Promise<SliceRow[]> => {
      const prepared = await connection.prepare(sql);
      prepared.bindVarchar(1, value);
      return (await prepared.runAndReadAll()).getRowObjectsJson() as SliceRow[];
    };
    const schema = (await connection.runAndReadAll("SELECT count(*)::INTEGER FROM duckdb_tables() WHERE schema_name = 'accounts' AND table_name = 'accounts'")).getRows()[0]?.[0];
    if (schema !== 1) throw new SandboxError('not-found', `${dbPath} has no accounts schema (built before the service episodes); rebuild it with "sandbox db build contact-center"`);
    const account = await read('SELECT * FROM accounts.accounts WHERE customer_id = ?', customerId);
    const region = account[0]?.region;
    if (typeof region !== 'string') throw new SandboxError('not-found', `no account for customer ${customerId} in ${dbPath}`);
    const tables = { accounts: account } as Record<AccountTable, SliceRow[]>;
    for (const table of ACCOUNT_TABLE_NAMES) {
      if (table === 'accounts') continue;
      if (table === 'plans') tables.plans = (await connection.runAndReadAll('SELECT * FROM accounts.plans ORDER BY tier')).getRowObjectsJson() as SliceRow[];
      else if (table === 'outages') tables.outages = await read('SELECT * FROM accounts.outages WHERE region = ? ORDER BY outage_id', region);
      else tables[table] = await read(`SELECT * FROM accounts.${table} WHERE customer_id = ? ORDER BY 1`, customerId);
    }
    return { customerId, region, tables };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
