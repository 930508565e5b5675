import type { Constraint } from '../../src/schemas/constraint.ts';

const range = (min: number, max: number | undefined, unit: string): string =>
  max === undefined ? `at least ${min} ${unit}` : min > 0 ? `between ${min} and ${max} ${unit}` : `at most ${max} ${unit}`;

type Of<C extends Constraint['category']> = Extract<Constraint, { category: C }>;

/**
 * The instruction the agent reads for each category, worded like CCTU's prompts: one row per category. A category
 * without a row (a new one) is worded by its `description`, else its id.
 */
const DESCRIBERS: { [C in Constraint['category']]?: (constraint: Of<C>) => string } = {
  'resource.interaction_rounds': ({ params }) => `Use ${range(params.min, params.max, 'interaction rounds')} (each assistant message is a round, the final answer included).`,
  'resource.tool_call_count': ({ params }) => `Make ${range(params.min, params.max, 'tool calls')} in total.`,
  'resource.specific_tool_call_count': ({ params }) => `Call ${Object.entries(params.limits).map(([tool, max]) => `${tool} at most ${max} time${max === 1 ? '' : 's'}`).join(', ')}.`,
  'behavior.sequential_dependencies': ({ params }) => params.chains.map((chain) => `Call the tools in this order, each in a later message than the one before: ${chain.join(' -> ')}.`).join(' '),
  'behavior.parallel_dependencies': ({ params }) => describeGroups(params.groups),
  'behavior.parallel_calls_count': ({ params }) => {
    const unit = params.unit === 'type' ? 'different tools' : 'tool calls';
    const parts: string[] = [];
    if (params.min > 0) parts.push(`at least once, make ${params.min} or more ${unit} in parallel in one message`);
    if (params.max !== undefined) parts.push(`never make more than ${params.max} ${unit} in one message`);
    return parts.length > 0 ? `Parallel calls: ${parts.join('; ')}.` : 'Parallel calls are allowed without limit.';
  },
  'toolset.available_tools': () => 'Use only the tools provided, with argument values their schemas allow.',
  'toolset.required_parameters': () => 'Always give every required parameter of a tool.',
  'toolset.parameter_types': () => 'Give every parameter the type its schema declares.',
  'response.length': ({ params }) => `The final answer must have ${range(params.min, params.max, params.unit === 'chars' ? 'characters' : 'words')}.`,
  'response.format': ({ params }) => {
    if (params.format === 'json') {
      // Says exactly what the check enforces (constraints/README.md, rule 5): strict = the JSON object alone.
      const keys = (params.requiredKeys ?? []).map((key) => `"${key}"${params.keyTypes?.[key] ? ` whose value is a ${params.keyTypes[key]}` : ''}`).join(' and ');
      const withKeys = keys === '' ? '' : ` with the key${(params.requiredKeys ?? []).length > 1 ? 's' : ''} ${keys}`;
      return params.strictness === 'lenient'
        ? `The final answer must contain a valid JSON object${withKeys}.`
        : `The final answer must be exactly one valid JSON object${withKeys}, and nothing else (a \`\`\`json fence around it is allowed).`;
    }
    if (params.format === 'markdown') return 'Format the final answer using Markdown syntax (headings, lists, bold or italic text).';
    if (params.format === 'table') return `Present the final answer as a Markdown table with at least ${params.minColumns ?? 2} columns.`;
    return 'Write the final answer as plain text, without any Markdown.';
  },
  'response.content': ({ params }) => {
    const parts: string[] = [];
    if (params.startsWith) parts.push(`must begin with "${params.startsWith}"`);
    if (params.endsWith) parts.push(`must end with the phrase "${params.endsWith}"`);
    for (const identifier of params.identifiers ?? []) parts.push(IDENTIFIER_WORDING[identifier]);
    if (params.keywords?.length) parts.push(`must mention ${params.keywords.map((keyword) => `"${keyword}"`).join(', ')}`);
    if (params.endingPunctuation) parts.push(`must end with "${params.endingPunctuation}"`);
    return `The final answer ${parts.join(', ')}.`;
  },
  custom: (constraint) => constraint.description ?? constraint.params.name,
  python: (constraint) => constraint.description ?? constraint.params.name,
};

const IDENTIFIER_WORDING = {
  'double-brackets': 'must enclose each answer in double square brackets, e.g. [[X]]',
  boxed: 'must enclose each answer in a LaTeX box, e.g. $\\boxed{X}$',
  bold: 'must put each answer in bold, e.g. **X**',
  quotes: 'must put each answer in double quotes, e.g. "X"',
} as const;

/** The instruction the agent reads for a constraint (its category's row of DESCRIBERS). */
export function describeConstraint(constraint: Constraint): string {
  const describe = DESCRIBERS[constraint.category] as ((constraint: Constraint) => string) | undefined;
  return describe ? describe(constraint) : (constraint.description ?? constraint.id);
}

/**
 * Parallel groups in words: a pair as CCTU words it; a self-group [t, t] as "call it twice"; a tool in two
 * groups (overlapping groups are alternatives, constraints/README.md rule 2) as "one of its groups is enough".
 */
function describeGroups(groups: string[][]): string {
  const groupsOf = (tool: string): string[][] => groups.filter((group) => group.includes(tool));
  const shared = [...new Set(groups.flat())].filter((tool) => groupsOf(tool).length > 1);
  const sentences = groups.map((group) => {
    const distinct = [...new Set(group)];
    if (distinct.length === 1) return `Whenever you call ${distinct[0]}, call it ${group.length === 2 ? 'twice' : `${group.length} times`} in the same message.`;
    if (distinct.some((tool) => shared.includes(tool))) {
      const others = distinct.filter((tool) => !shared.includes(tool));
      return others.map((tool) => `Whenever you call ${tool}, call ${group.filter((member) => member !== tool).join(' and ')} in the same message too.`).join(' ');
    }
    return `Whenever you call ${group.join(' or ')}, call ${group.join(' and ')} together in the same message.`;
  });
  for (const tool of shared) {
    const alternatives = groupsOf(tool).map((group) => group.filter((member) => member !== tool).join(' and ') || tool);
    sentences.push(`Whenever you call ${tool}, call it in the same message as ${alternatives.join(' or as ')} (either one is enough).`);
  }
  return sentences.filter((sentence) => sentence !== '').join(' ');
}
