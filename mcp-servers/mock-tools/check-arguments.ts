import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';

/** Checks a call's arguments against a tool's input schema; returns one sentence per problem, empty when valid. */
export type ArgumentCheck = (args: Record<string, unknown>) => string[];

// Keywords that only say "something below me failed": the failure below is the one worth naming.
const AGGREGATES = new Set(['properties', 'items', 'prefixItems', 'additionalProperties', 'patternProperties', 'allOf', '$ref', 'unevaluatedProperties', 'unevaluatedItems', 'dependentSchemas', 'contains', 'if', 'then', 'else']);

/** `#/options/precision` → `options.precision`; the arguments object itself is `(arguments)`. */
function argumentPath(instanceLocation: string, child?: string): string {
  const parts = instanceLocation.replace(/^#\/?/u, '').split('/').filter((part) => part !== '').map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (child !== undefined) parts.push(child);
  return parts.length === 0 ? '(arguments)' : parts.join('.');
}

function describe(unit: OutputUnit): string {
  const required = /required property "(.+)"/u.exec(unit.error);
  if (unit.keyword === 'required' && required) return `missing required argument \`${argumentPath(unit.instanceLocation, required[1])}\``;
  return `argument \`${argumentPath(unit.instanceLocation)}\`: ${unit.error.replace(/^Instance /u, 'value ')}`;
}

/**
 * Compiles a tool's input schema once with @cfworker/json-schema (a standard validator: drafts 4 to 2020-12,
 * the dialect named by `$schema`, else 2020-12 as MCP specifies) and returns its check. Only the schema's
 * own rules apply: an argument the schema does not declare is accepted unless it says
 * `additionalProperties: false` (whether an undeclared argument is a CCTU violation is the validator's call).
 */
export function compileArgumentCheck(schema: Record<string, unknown>): ArgumentCheck {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  const draft = declared.includes('draft-04') ? '4' : declared.includes('draft-07') ? '7' : declared.includes('2019-09') ? '2019-09' : '2020-12';
  const validator = new Validator({ type: 'object', ...schema } as Schema, draft, false);
  return (args) => {
    const { valid, errors } = validator.validate(args);
    if (valid) return [];
    const leaves = errors.filter((unit) => !AGGREGATES.has(unit.keyword));
    return [...new Set((leaves.length > 0 ? leaves : errors).map(describe))];
  };
}
