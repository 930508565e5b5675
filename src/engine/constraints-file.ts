import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { checkWithSchema, parseJson } from '../schemas/json-with-schema.ts';
import { SandboxError } from '../sandbox-error.ts';
import { ConstraintSchema, type Constraint } from '../schemas/constraint.ts';

/** A constraints file: a list of constraints, or an object with `constraints` (a task file works too). */
const ConstraintListSchema = z.array(ConstraintSchema);
const ConstraintsObjectSchema = z.object({ constraints: ConstraintListSchema }).loose();

/** Reads a constraints file (`validate --constraints`, `fork --constraints`); a bad or unreadable file is `invalid-input` naming it. */
export async function readConstraintsFile(file: string): Promise<Constraint[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SandboxError('invalid-input', `${file}: ${(error as Error).message}`, { cause: error });
  }
  const json = parseJson(text, file);
  // Parsed with one schema or the other (not a union) so an error names the bad field, not "(root)".
  return Array.isArray(json) ? checkWithSchema(json, ConstraintListSchema, file) : checkWithSchema(json, ConstraintsObjectSchema, file).constraints;
}
