import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { describeZodError } from '../schemas/describe-zod-error.ts';
import { SandboxError } from '../sandbox-error.ts';
import { ConstraintSchema, type Constraint } from '../schemas/constraint.ts';

/** A constraints file: a list of constraints, or an object with `constraints` (a task file works too). */
const ConstraintListSchema = z.array(ConstraintSchema);
const ConstraintsObjectSchema = z.object({ constraints: ConstraintListSchema }).loose();

/** Reads a constraints file (`validate --constraints`, `fork --constraints`); a bad or unreadable file is `invalid-input` naming it. */
export async function readConstraintsFile(file: string): Promise<Constraint[]> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new SandboxError('invalid-input', `${file}: ${(error as Error).message}`, { cause: error });
  }
  // Parsed with one schema or the other (not a union) so an error names the bad field, not "(root)".
  const parsed = Array.isArray(json) ? ConstraintListSchema.safeParse(json) : ConstraintsObjectSchema.safeParse(json);
  if (!parsed.success) throw new SandboxError('invalid-input', describeZodError(file, parsed.error), { cause: parsed.error });
  return Array.isArray(parsed.data) ? parsed.data : parsed.data.constraints;
}
