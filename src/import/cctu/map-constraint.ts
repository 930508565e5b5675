import { CCTU_DEFAULT_MAX_ROUNDS, type Constraint } from '../../schemas/constraint.ts';
import type { CheckFile } from './cctu-sample.ts';

/** Why one constraint of a sample cannot be imported (the importer prefixes the sample and file). */
export class UnmappableConstraint extends Error {}

/** CCTU's response validators: the function a `.py` check file must define for each secondary category. */
export const PYTHON_FUNCTIONS: Record<string, string> = { Format: 'validate_format', Identifiers: 'validate_identifiers', Punctuation: 'validate_punctuation' };

/** Keys every JSON configuration may carry besides its category's own: the prompt text and the constraint triple. */
const COMMON_KEYS = ['refine_constraint', 'constraint'];

function count(config: Record<string, unknown>, key: string, options: { optional?: boolean; infinite?: 'max' } = {}): number | undefined {
  const value = config[key];
  if (value === undefined && options.optional) return undefined;
  if (options.infinite === 'max' && (value === 'inf' || value === 'Infinity' || value === null)) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  throw new UnmappableConstraint(`"${key}" must be a non-negative integer${options.infinite ? ' or "inf"' : ''}, got ${JSON.stringify(value)}`);
}

function onlyKeys(config: Record<string, unknown>, keys: string[]): void {
  const unknown = Object.keys(config).filter((key) => !keys.includes(key) && !COMMON_KEYS.includes(key));
  if (unknown.length > 0) throw new UnmappableConstraint(`unknown configuration key${unknown.length === 1 ? '' : 's'} ${unknown.map((key) => `"${key}"`).join(', ')}`);
}

function toolLists(value: unknown, key: string): string[][] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((list) => Array.isArray(list) && list.length >= 2 && list.every((tool) => typeof tool === 'string' && tool !== ''))) {
    throw new UnmappableConstraint(`"${key}" must be a non-empty list of lists of at least two tool names, got ${JSON.stringify(value)}`);
  }
  return value as string[][];
}

function minMax(config: Record<string, unknown>, minKey: string, maxKey: string): { min: number; max?: number } {
  const min = count(config, minKey, { optional: true }) ?? 0;
  const max = count(config, maxKey, { optional: true, infinite: 'max' });
  if (max !== undefined && max < min) throw new UnmappableConstraint(`"${maxKey}" (${max}) is below "${minKey}" (${min})`);
  return max === undefined ? { min } : { min, max };
}

/**
 * One CCTU constraint (`[primary, secondary, description]` at `index` of `constraints_list`, with its check file)
 * as one of our constraints, CCTU's configuration carried over unchanged:
 * Interact/Round → resource.interaction_rounds, Interact/Call Times → resource.tool_call_count,
 * Interact/Parallel Calls → behavior.parallel_calls_count (unit type | num → type | times),
 * Tool/Max Calls Per Tool → resource.specific_tool_call_count, Tool/Tool Order → behavior.sequential_dependencies,
 * Tool/Tool Parallel → behavior.parallel_dependencies, Response/Length → response.length,
 * Response/Format | Identifiers | Punctuation → python (the `.py` file's validate_* function, kept as Python).
 * Anything else throws UnmappableConstraint: an import never drops a constraint.
 */
export function mapConstraint(index: number, triple: readonly [string, string, string], check: CheckFile | undefined): Constraint {
  const [primary, secondary, description] = triple;
  const kind = `${primary}/${secondary}`;
  const id = `c${index}-${`${primary}-${secondary}`.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const base = { id, description };
  const pythonFunction = primary === 'Response' ? PYTHON_FUNCTIONS[secondary] : undefined;
  if (pythonFunction !== undefined) {
    if (check?.kind !== 'python') throw new UnmappableConstraint(`${kind} needs a Python validator (check_constraint_<i>.py), found ${check === undefined ? 'none' : check.file}`);
    return { ...base, category: 'python', params: { name: `${primary} ${secondary}`, source: check.source, function: pythonFunction } };
  }
  if (check?.kind !== 'json') throw new UnmappableConstraint(`${kind} needs a JSON configuration (check_constraint_${index}.json), found ${check === undefined ? 'none' : check.file}`);
  const config = check.config;
  const declared = config.constraint;
  if (Array.isArray(declared) && (declared[0] !== primary || declared[1] !== secondary)) {
    throw new UnmappableConstraint(`the file configures ${JSON.stringify(declared.slice(0, 2))}, but constraints_list[${index}] is ${JSON.stringify([primary, secondary])}`);
  }
  switch (kind) {
    case 'Interact/Round': {
      onlyKeys(config, ['min_round', 'max_round']);
      // CCTU's default round limit applies when the file sets no maximum (constraints/README.md, rule 1).
      const { min, max } = minMax(config, 'min_round', 'max_round');
      return { ...base, category: 'resource.interaction_rounds', params: { min, max: max ?? CCTU_DEFAULT_MAX_ROUNDS } };
    }
    case 'Interact/Call Times':
      onlyKeys(config, ['min_callTimes', 'max_callTimes']);
      return { ...base, category: 'resource.tool_call_count', params: minMax(config, 'min_callTimes', 'max_callTimes') };
    case 'Interact/Parallel Calls': {
      onlyKeys(config, ['min_parallelCallTypes', 'max_parallelCallTypes', 'unit']);
      const unit = config.unit === undefined || config.unit === 'type' ? 'type' : config.unit === 'num' ? 'times' : undefined;
      if (unit === undefined) throw new UnmappableConstraint(`"unit" must be "type" or "num", got ${JSON.stringify(config.unit)}`);
      return { ...base, category: 'behavior.parallel_calls_count', params: { ...minMax(config, 'min_parallelCallTypes', 'max_parallelCallTypes'), unit } };
    }
    case 'Tool/Max Calls Per Tool': {
      onlyKeys(config, ['max_calls_per_tool']);
      const limits = config.max_calls_per_tool;
      if (limits === null || typeof limits !== 'object' || Array.isArray(limits) || Object.keys(limits).length === 0) {
        throw new UnmappableConstraint(`"max_calls_per_tool" must map tool names to limits, got ${JSON.stringify(limits)}`);
      }
      return { ...base, category: 'resource.specific_tool_call_count', params: { limits: Object.fromEntries(Object.keys(limits).map((tool) => [tool, count(limits as Record<string, unknown>, tool)!])) } };
    }
    case 'Tool/Tool Order':
      onlyKeys(config, ['order_constraints']);
      return { ...base, category: 'behavior.sequential_dependencies', params: { chains: toolLists(config.order_constraints, 'order_constraints') } };
    case 'Tool/Tool Parallel':
      onlyKeys(config, ['parallel_groups']);
      return { ...base, category: 'behavior.parallel_dependencies', params: { groups: toolLists(config.parallel_groups, 'parallel_groups') } };
    case 'Response/Length': {
      onlyKeys(config, ['min_responseLength', 'max_responseLength', 'unit']);
      const unit = config.unit === 'words' ? 'words' : config.unit === 'chars' || config.unit === 'characters' ? 'chars' : undefined;
      if (unit === undefined) throw new UnmappableConstraint(`"unit" must be "words" or "chars", got ${JSON.stringify(config.unit)}`);
      return { ...base, category: 'response.length', params: { ...minMax(config, 'min_responseLength', 'max_responseLength'), unit } };
    }
    default:
      throw new UnmappableConstraint(`${kind} has no counterpart among this sandbox's constraint categories`);
  }
}
