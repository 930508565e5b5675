import { CCTU_DEFAULT_MAX_ROUNDS, type Constraint } from '../../schemas/constraint.ts';
import { pythonStrip } from '../../schemas/cctu-text.ts';
import type { CheckFile } from './cctu-sample.ts';

// Everything here follows CCTU's checker, github Junjie-Ye/CCTU, utils/constraint_checker/: the pair a constraint
// is matched on (core.py, DialogueConstraintChecker._init_handlers: HANDLER_REGISTRY.get((primary.lower(),
// secondary.lower()))), the file it is configured from (core.py, _json_check_file / _py_check_file: its own
// check_constraint_<i>.json or .py), the keys each handler's `configure` reads (handlers/interact.py, tool.py,
// response.py) and how it reads a count (check_utils.py, to_int).

/** Why one constraint of a sample cannot be imported (the importer prefixes the sample and file). */
export class UnmappableConstraint extends Error {}

/** The Python handlers: the function each calls in its check_constraint_<i>.py, and the name in its feedback. */
const PYTHON_HANDLERS: Record<string, { function: string; name: string }> = {
  'response/format': { function: 'validate_format', name: 'Format' }, // ResponseFormatHandler
  'response/content_2': { function: 'validate_punctuation', name: 'Punctuation' }, // ResponsePunctuationHandler
  'response/content_1': { function: 'validate_identifiers', name: 'Identifiers' }, // ResponseIdentifiersHandler
};

/** The JSON handlers: the keys each `configure` reads (a missing one is a KeyError in CCTU). */
const JSON_HANDLERS: Record<string, readonly string[]> = {
  'resource/interaction rounds': ['min_round', 'max_round'], // RoundHandler
  'resource/tool call count': ['min_callTimes', 'max_callTimes'], // CallTimesHandler
  'behavior/parallel calls count': ['min_parallelCallTypes', 'max_parallelCallTypes', 'unit'], // ParallelCallsHandler
  'resource/specific tool call count': ['max_calls_per_tool'], // MaxCallsPerToolHandler
  'behavior/sequential dependencies': ['order_constraints'], // ToolOrderHandler
  'behavior/parallel dependencies': ['parallel_groups'], // ToolParallelHandler
  'response/length': ['min_responseLength', 'max_responseLength', 'unit'], // ResponseLengthHandler
};

/** Keys a JSON configuration carries that no handler reads, but CCTU's released files have: not reported. */
export const KNOWN_EXTRA_CONFIG_KEYS: readonly string[] = ['refine_constraint', 'constraint'];

/** CCTU's handler key of a constraint: `primary.strip().strip('"')`, lower-cased, likewise the secondary (check_utils.py, _parse_constraints). */
export function handlerKey(primary: string, secondary: string): string {
  const clean = (text: string) => pythonStrip(text).replace(/^"+|"+$/g, '').toLowerCase();
  return `${clean(primary)}/${clean(secondary)}`;
}

export const isRegistered = (key: string): boolean => key in PYTHON_HANDLERS || key in JSON_HANDLERS;
export const isPythonHandler = (key: string): boolean => key in PYTHON_HANDLERS;
export const configKeysOf = (key: string): readonly string[] => JSON_HANDLERS[key] ?? [];

/**
 * check_utils.py, to_int: None → inf, a number → int(x) (truncated), a string → inf for "inf" (any case, spaced),
 * else int(s) (digits with an optional sign, `_` between digits, spaces around). Anything else is CCTU's TypeError.
 */
function toInt(value: unknown, key: string): number {
  if (value === null) return Infinity;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : value;
  if (typeof value === 'string') {
    const text = pythonStrip(value).toLowerCase();
    if (text === 'inf') return Infinity;
    if (/^[+-]?\d+(?:_\d+)*$/.test(text)) return Number(text.replace(/_/g, ''));
  }
  throw new UnmappableConstraint(`"${key}" is ${JSON.stringify(value)}, which CCTU's to_int cannot read`);
}

/** A lower bound: CCTU's counts start at 0, so a negative minimum is 0; an infinite one (null) no answer ever meets. */
function lowerBound(config: Record<string, unknown>, key: string): number {
  const value = toInt(config[key], key);
  if (value === Infinity) throw new UnmappableConstraint(`"${key}" is ${JSON.stringify(config[key])} (infinite: CCTU would reject every answer), which this sandbox does not represent`);
  return Math.max(0, value);
}

/** An upper bound: undefined when infinite. */
function upperBound(config: Record<string, unknown>, key: string): number | undefined {
  const value = toInt(config[key], key);
  if (value === Infinity) return undefined;
  if (value < 0) throw new UnmappableConstraint(`"${key}" is ${value}; a negative maximum is not represented here`);
  return value;
}

function toolLists(config: Record<string, unknown>, key: string, tools: readonly string[]): string[][] {
  const value = config[key];
  if (!Array.isArray(value) || !value.every((list) => Array.isArray(list) && list.every((tool) => typeof tool === 'string'))) {
    throw new UnmappableConstraint(`"${key}" must be a list of lists of tool names, got ${JSON.stringify(value)}`);
  }
  for (const tool of (value as string[][]).flat()) {
    // tool.py, ToolOrderHandler.configure / ToolParallelHandler.configure: KeyError for a tool not in the tool list.
    if (!tools.includes(tool)) throw new UnmappableConstraint(`"${key}" names tool ${tool}, which "tools" does not list`);
  }
  return value as string[][];
}

/**
 * CCTU's one-query case: handlers/tool.py, ToolOrderHandler.check hard-codes, for query id 96, that when the first
 * tool called is urban_area_identifier this chain is the order, and otherwise no order applies.
 */
const QUERY_96_FIRST_TOOL = {
  name: 'urban_area_identifier',
  chains: [['urban_area_identifier', 'business_district_locator', 'business_locator', 'consulting_client_finder', 'corporate_housing_locator', 'rental_price_analyzer']],
};

export interface MappingContext {
  /** CCTU's query id (int(id.split("_")[0])). */
  queryId: bigint;
  /** The sample's tool names. */
  tools: readonly string[];
  /** Notes for stderr (configurations CCTU accepts that deserve a word). */
  note: (text: string) => void;
}

/**
 * One CCTU constraint (`[primary, secondary, description]` at `index` of `constraints_list`, configured by `check`,
 * its check_constraint_<index>.json or .py) as one of our constraints, with CCTU's own feedback text
 * (`wording: 'cctu'`). Throws UnmappableConstraint when CCTU's checker would fail on it (a missing file or key, a
 * tool not in the list) or when this sandbox cannot represent it; an import never drops a constraint.
 */
export function mapConstraint(index: number, triple: readonly [string, string, string], check: CheckFile | undefined, context: MappingContext): Constraint {
  const [primary, secondary, description] = triple;
  const key = handlerKey(primary, secondary);
  const base = { id: `c${index}-${key.replace(/[^a-z0-9]+/g, '-')}`, description: pythonStrip(description) };
  const python = PYTHON_HANDLERS[key];
  if (python !== undefined) {
    if (check?.kind !== 'python') throw new UnmappableConstraint(`${key} is checked by check_constraint_${index}.py, which is missing`);
    return { ...base, category: 'python', params: { name: python.name, source: check.source, function: python.function } };
  }
  const keys = JSON_HANDLERS[key];
  if (keys === undefined) throw new UnmappableConstraint(`${JSON.stringify([primary, secondary])} is not a pair of CCTU's HANDLER_REGISTRY (handlers/registry.py)`);
  if (check?.kind !== 'json') throw new UnmappableConstraint(`${key} is configured by check_constraint_${index}.json, which is missing`);
  const config = check.config;
  const absent = keys.filter((name) => !(name in config));
  if (absent.length > 0) throw new UnmappableConstraint(`${key} needs ${absent.map((name) => `"${name}"`).join(', ')} in its configuration (CCTU's configure reads them)`);
  const wording = 'cctu' as const;
  const minMax = (minKey: string, maxKey: string) => {
    const max = upperBound(config, maxKey);
    return { min: lowerBound(config, minKey), ...(max === undefined ? {} : { max }) };
  };
  switch (key) {
    case 'resource/interaction rounds': {
      // RoundHandler.configure: max_round = min(max_turns (20), to_int(max_round)).
      const max = Math.min(CCTU_DEFAULT_MAX_ROUNDS, upperBound(config, 'max_round') ?? Infinity);
      return { ...base, category: 'resource.interaction_rounds', params: { min: lowerBound(config, 'min_round'), max, wording } };
    }
    case 'resource/tool call count':
      return { ...base, category: 'resource.tool_call_count', params: { ...minMax('min_callTimes', 'max_callTimes'), wording } };
    case 'behavior/parallel calls count':
      // ParallelCallsHandler.check: "type" counts distinct tools, any other unit counts calls.
      return { ...base, category: 'behavior.parallel_calls_count', params: { ...minMax('min_parallelCallTypes', 'max_parallelCallTypes'), unit: config.unit === 'type' ? 'type' : 'times', wording } };
    case 'resource/specific tool call count': {
      const limits = config.max_calls_per_tool;
      if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) throw new UnmappableConstraint(`"max_calls_per_tool" must map tool names to limits, got ${JSON.stringify(limits)}`);
      const entries = Object.keys(limits).flatMap((tool): Array<[string, number]> => {
        if (!context.tools.includes(tool)) throw new UnmappableConstraint(`"max_calls_per_tool" names tool ${tool}, which "tools" does not list`);
        const limit = upperBound(limits as Record<string, unknown>, tool);
        return limit === undefined ? [] : [[tool, limit]];
      });
      return { ...base, category: 'resource.specific_tool_call_count', params: { limits: Object.fromEntries(entries), wording } };
    }
    case 'behavior/sequential dependencies': {
      const chains = toolLists(config, 'order_constraints', context.tools);
      if (context.queryId === 96n) return { ...base, category: 'behavior.sequential_dependencies', params: { chains, firstTool: QUERY_96_FIRST_TOOL, wording } };
      return { ...base, category: 'behavior.sequential_dependencies', params: { chains, wording } };
    }
    case 'behavior/parallel dependencies': {
      const groups = toolLists(config, 'parallel_groups', context.tools).filter((group) => group.length > 0);
      return { ...base, category: 'behavior.parallel_dependencies', params: { groups, wording } };
    }
    default: {
      // response/length. ResponseLengthHandler.check measures "characters" and "words"; any other unit, nothing.
      const unit = config.unit === 'words' ? 'words' : config.unit === 'characters' ? 'chars' : undefined;
      if (unit === undefined) {
        context.note(`constraint ${index}: length unit ${JSON.stringify(config.unit)} is neither "characters" nor "words", so CCTU's ResponseLengthHandler checks nothing, and nor does the import`);
        return { ...base, category: 'response.length', params: { min: 0, unit: 'chars', wording } };
      }
      return { ...base, category: 'response.length', params: { ...minMax('min_responseLength', 'max_responseLength'), unit, wording } };
    }
  }
}
