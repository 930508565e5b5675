import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { SandboxError } from '../../../src/sandbox-error.ts';
import type { Engine } from './backend.ts';

/** A PostgreSQL connection URL (node-postgres reads both spellings). */
export const isPostgresUrl = (db: string) => /^postgres(?:ql)?:\/\//iu.test(db);

/**
 * The engine of a database argument: a `postgres://` URL, else the file's header — SQLite's 16-byte magic
 * "SQLite format 3\0" (sqlite.org/fileformat.html, "The Database Header"), DuckDB's "DUCK" at byte 8 (DuckDB's
 * storage `MainHeader`: an 8-byte checksum, then the magic bytes) — never the extension. A missing file is
 * `not-found`, a file of neither kind `invalid-input`, each one line naming it.
 */
export function engineOf(db: string): Engine {
  if (isPostgresUrl(db)) return 'postgres';
  const header = Buffer.alloc(16);
  let read: number;
  try {
    const fd = openSync(db, 'r');
    try {
      read = readSync(fd, header, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new SandboxError('not-found', `no database at ${path.resolve(db)}`);
    if (code === 'EISDIR') throw new SandboxError('invalid-input', `${path.resolve(db)} is a folder, not a database file`);
    throw new SandboxError('invalid-input', `cannot read the database ${path.resolve(db)}: ${(error as Error).message}`, { cause: error });
  }
  if (read === 16 && header.toString('latin1') === 'SQLite format 3\0') return 'sqlite';
  if (read >= 12 && header.toString('latin1', 8, 12) === 'DUCK') return 'duckdb';
  throw new SandboxError('invalid-input', `${path.resolve(db)} is not a database: neither a DuckDB nor a SQLite file (its header says neither), nor a postgres:// URL`);
}
