import { Validator, type OutputUnit } from '@cfworker/json-schema';

/** Keywords whose error only says that a part below failed; the part's own error says what and where. */
const WRAPPERS = new Set(['properties', 'patternProperties', 'additionalProperties', 'items', 'prefixItems', 'additionalItems', 'contains', 'allOf', '$ref', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'then', 'else']);

/** The argument an error is about: the path below the arguments object, or the property `required` names. */
function argumentOf(unit: OutputUnit): string {
  const below = unit.instanceLocation.replace(/^#\/?/, '');
  const required = unit.keyword === 'required' ? /property "([^"]*)"/.exec(unit.error)?.[1] : undefined;
  const parts = below === '' ? [] : below.split('/').map((part) => decodeURIComponent(part.replaceAll('~1', '/').replaceAll('~0', '~')));
  if (required !== undefined) parts.push(required);
  return parts.join('.');
}

/**
 * Checks tool-call arguments against a tool's input schema (JSON Schema, draft 2020-12 as MCP tools declare
 * it) with @cfworker/json-schema, the standard validator the MCP SDK also uses. Schemas are compiled once per tool.
 */
export class ArgumentChecker {
  private readonly validators = new Map<string, Validator>();

  constructor(tools: Iterable<{ name: string; parameters: Record<string, unknown> }>) {
    for (const tool of tools) this.validators.set(tool.name, new Validator({ type: 'object', ...tool.parameters } as never, '2020-12', false));
  }

  /**
   * Null when the arguments fit the schema of `tool` (or the tool is not known here); otherwise one line
   * naming each wrong argument, e.g. `Invalid arguments for currency_converter: "amount": Instance type "string" is invalid. Expected "number".`
   */
  check(tool: string, args: unknown): string | null {
    const validator = this.validators.get(tool);
    if (!validator) return null;
    const { valid, errors } = validator.validate(args);
    if (valid) return null;
    const leaves = errors.filter((unit) => !WRAPPERS.has(unit.keyword));
    const issues = (leaves.length > 0 ? leaves : errors).map((unit) => {
      const name = argumentOf(unit);
      return name === '' ? unit.error : `"${name}": ${unit.error}`;
    });
    return `Invalid arguments for ${tool}: ${[...new Set(issues)].join('; ')}`;
  }
}
