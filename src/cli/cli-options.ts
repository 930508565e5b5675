import { Option } from 'commander';
import { SandboxError } from '../sandbox-error.ts';
import { ModelSpecSchema } from '../schemas/model-spec.ts';

/** `--enforcement`, shared by `episode` and `run`. */
export function enforcementOption(): Option {
  return new Option('--enforcement <mode>', 'block: apply verdicts; observe: record only; off: no checks').choices(['block', 'observe', 'off']).default('block');
}

/** A positive integer option value, or `invalid-input` naming the option. */
export function positiveInteger(name: string): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) throw new SandboxError('invalid-input', `${name} must be a positive integer, got "${value}"`);
    return number;
  };
}

/** Checks a model spec string up front, so a typo fails before any server starts. */
export function checkModelSpec(spec: string): string {
  const parsed = ModelSpecSchema.safeParse(spec);
  if (!parsed.success) throw new SandboxError('invalid-input', parsed.error.issues[0]?.message ?? `invalid model spec ${spec}`);
  return spec;
}
