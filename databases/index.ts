import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { dataDir } from '../src/data-dir.ts';
import { SandboxError } from '../src/sandbox-error.ts';

/** Options every database generator accepts; a generator may ignore what does not apply (e.g. `calls`). */
export interface DatabaseBuildOptions {
  /** Main size knob (for contact-center: number of calls). */
  calls?: number;
  seed?: number;
}

export interface DatabaseGenerator {
  /** One line for `sandbox db list` and help text. */
  description: string;
  /** Builds the database at `path` (replacing it). */
  build(path: string, options: DatabaseBuildOptions): Promise<unknown>;
}

/** The database generators by name. Generators load lazily so importing the registry stays cheap. */
export const DATABASES: Record<string, DatabaseGenerator> = {
  'contact-center': {
    description: 'contact-center warehouse: calls, agents, customers, QA evaluations, key moments, transcripts (planted patterns)',
    build: async (file, options) => (await import('./contact-center/build-contact-center.ts')).buildContactCenter({ path: file, ...options }),
  },
  clinical: {
    description: 'synthetic clinical records: patients, admissions, diagnoses, lab results over time, medications, allergies (DDR)',
    build: async (file, options) => (await import('./clinical/build-clinical.ts')).buildClinical(file, { seed: options.seed }),
  },
  filings: {
    description: 'fictional company filings: companies, yearly statements, segments, risk-factor text (DDR)',
    build: async (file, options) => (await import('./filings/build-filings.ts')).buildFilings(file, { seed: options.seed }),
  },
};

/** Where `ensureDatabase` keeps a database: `<dataDir>/databases/<name>[-<calls>][-s<seed>].duckdb`. */
export function databasePath(name: string, options: DatabaseBuildOptions = {}): string {
  const suffix = `${options.calls === undefined ? '' : `-${options.calls}`}${options.seed === undefined ? '' : `-s${options.seed}`}`;
  return path.join(dataDir(), 'databases', `${name}${suffix}.duckdb`);
}

const pending = new Map<string, Promise<string>>();

/**
 * Returns the path of a built database, building it on first use (the default size unless options say
 * otherwise). Builds into a temporary file and renames it, so an interrupted build never leaves a
 * half-written database that a later run would trust; concurrent callers in one process share one build.
 */
export function ensureDatabase(name: string, options: DatabaseBuildOptions = {}): Promise<string> {
  const generator = DATABASES[name];
  if (!generator) {
    return Promise.reject(new SandboxError('not-found', `no database generator named "${name}" (known: ${Object.keys(DATABASES).join(', ')})`));
  }
  const file = databasePath(name, options);
  if (existsSync(file)) return Promise.resolve(file);
  const running = pending.get(file);
  if (running) return running;
  const build = (async () => {
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    await generator.build(partial, options);
    await rename(partial, file);
    return file;
  })().finally(() => pending.delete(file));
  pending.set(file, build);
  return build;
}
