import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { SandboxError, type SandboxErrorCode } from '../sandbox-error.ts';
import { describeZodError } from './describe-zod-error.ts';

/** How a bad file is reported: the error code (default `invalid-input`) and an optional hint after the one line. */
export interface JsonErrorOptions {
  code?: SandboxErrorCode;
  /** Appended to the message after ": " (what the user can do about it). */
  hint?: string;
}

const withHint = (message: string, hint: string | undefined) => (hint === undefined ? message : `${message}: ${hint}`);

/** Parses JSON text; bad JSON is one line naming `where` (a file, `file:line`, a field). */
export function parseJson(text: string, where: string, options: JsonErrorOptions = {}): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SandboxError(options.code ?? 'invalid-input', withHint(`${where}: not valid JSON: ${(error as Error).message}`, options.hint), { cause: error });
  }
}

/** Validates a parsed value with `schema`; a mismatch is one line naming `where`, the first bad path and what was expected. */
export function checkWithSchema<S extends z.ZodType>(value: unknown, schema: S, where: string, options: JsonErrorOptions = {}): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SandboxError(options.code ?? 'invalid-input', withHint(describeZodError(where, parsed.error), options.hint), { cause: parsed.error });
  return parsed.data;
}

/** `parseJson` then `checkWithSchema`. */
export function parseJsonWithSchema<S extends z.ZodType>(text: string, schema: S, where: string, options: JsonErrorOptions = {}): z.output<S> {
  return checkWithSchema(parseJson(text, where, options), schema, where, options);
}

/** Reads a file as UTF-8; a file that cannot be read is `not-found` naming `what` and the file. */
export async function readTextFile(file: string, what = 'file'): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw unreadable(file, what, error);
  }
}

/** `readTextFile`, synchronously: for many small files, far cheaper than a read through promises each. */
export function readTextFileSync(file: string, what = 'file'): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw unreadable(file, what, error);
  }
}

function unreadable(file: string, what: string, error: unknown): SandboxError {
  return new SandboxError('not-found', `cannot read ${what} ${file}: ${(error as Error).message}`, { cause: error });
}

/** Reads a JSON file and validates it with `schema` (errors as `readTextFile` and `parseJsonWithSchema` say). */
export async function readJsonWithSchema<S extends z.ZodType>(file: string, schema: S, options: JsonErrorOptions & { what?: string; shown?: string } = {}): Promise<z.output<S>> {
  return parseJsonWithSchema(await readTextFile(file, options.what), schema, options.shown ?? file, options);
}
