import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';

/**
 * Tool-call arguments against a tool's input schema, with @cfworker/json-schema (a standard validator, the one the
 * MCP SDK uses: drafts 4 to 2020-12, the dialect named by `$schema`, else 2020-12 as MCP specifies). One checker for
 * both places that check: the mock-tools server (`compileArgumentCheck`) and the gateway and its engine session
 * (`ArgumentChecker`). Only the schema's own rules apply: an argument the schema does not declare is accepted unless
 * it says `additionalProperties: false` (whether an undeclared argument is a CCTU violation is the validator's call).
 */

/** One problem with the arguments: the argument's path below the arguments object (empty for the object itself). */
interface ArgumentIssue {
  path: string[];
  /** The property `required` names as missing, if that is the problem. */
  missing?: string;
  error: string;
}

// Keywords whose error only says that a part below failed; the part's own error says what and where.
const AGGREGATES = new Set(['properties', 'patternProperties', 'additionalProperties', 'items', 'prefixItems', 'additionalItems', 'contains', 'allOf', '$ref', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'if', 'then', 'else']);

function issueOf(unit: OutputUnit): ArgumentIssue {
  // cfworker writes instance locations as JSON pointers, URI-encoded (`encodeURI` of the escaped key).
  const path = unit.instanceLocation.replace(/^#\/?/u, '').split('/').filter((part) => part !== '').map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'));
  const missing = unit.keyword === 'required' ? /property "(.*)"/u.exec(unit.error)?.[1] : undefined;
  return { path, ...(missing !== undefined ? { missing } : {}), error: unit.error };
}

function compileIssues(schema: Record<string, unknown>): (args: unknown) => ArgumentIssue[] {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  const draft = declared.includes('draft-04') ? '4' : declared.includes('draft-07') ? '7' : declared.includes('2019-09') ? '2019-09' : '2020-12';
  const validator = new Validator({ type: 'object', ...schema } as Schema, draft, false);
  return (args) => {
    const { valid, errors } = validator.validate(args);
    if (valid) return [];
    const leaves = errors.filter((unit) => !AGGREGATES.has(unit.keyword));
    return (leaves.length > 0 ? leaves : errors).map(issueOf);
  };
}

/** Checks a call's arguments against a tool's input schema; returns one sentence per problem, empty when valid. */
export type ArgumentCheck = (args: Record<string, unknown>) => string[];

/** The mock-tools server's check: "missing required argument `a.b`", "argument `a.b`: value type …". */
export function compileArgumentCheck(schema: Record<string, unknown>): ArgumentCheck {
  const issues = compileIssues(schema);
  return (args) =>
    [...new Set(issues(args).map((issue) => {
      if (issue.missing !== undefined) return `missing required argument \`${[...issue.path, issue.missing].join('.')}\``;
      return `argument \`${issue.path.length === 0 ? '(arguments)' : issue.path.join('.')}\`: ${issue.error.replace(/^Instance /u, 'value ')}`;
    }))];
}

/** The gateway's check over a task's tools: one line naming each wrong argument, schemas compiled once per tool. */
export class ArgumentChecker {
  private readonly checks = new Map<string, (args: unknown) => ArgumentIssue[]>();

  constructor(tools: Iterable<{ name: string; parameters: Record<string, unknown> }>) {
    for (const tool of tools) this.checks.set(tool.name, compileIssues(tool.parameters));
  }

  /**
   * Null when the arguments fit the schema of `tool` (or the tool is not known here); otherwise one line
   * naming each wrong argument, e.g. `Invalid arguments for currency_converter: "amount": Instance type "string" is invalid. Expected "number".`
   */
  check(tool: string, args: unknown): string | null {
    const check = this.checks.get(tool);
    if (!check) return null;
    const issues = check(args);
    if (issues.length === 0) return null;
    const lines = issues.map((issue) => {
      const name = [...issue.path, ...(issue.missing !== undefined ? [issue.missing] : [])].join('.');
      return name === '' ? issue.error : `"${name}": ${issue.error}`;
    });
    return `Invalid arguments for ${tool}: ${[...new Set(lines)].join('; ')}`;
  }
}
