import type { Constraint } from '../../src/schemas/constraint.ts';

const range = (min: number, max: number | undefined, unit: string): string =>
  max === undefined ? `at least ${min} ${unit}` : min > 0 ? `between ${min} and ${max} ${unit}` : `at most ${max} ${unit}`;

/** The instruction the agent reads for a constraint, worded like CCTU's prompts. */
export function describeConstraint(constraint: Constraint): string {
  switch (constraint.category) {
    case 'resource.interaction_rounds':
      return `Use ${range(constraint.params.min, constraint.params.max, 'interaction rounds')} (each assistant message is a round, the final answer included).`;
    case 'resource.tool_call_count':
      return `Make ${range(constraint.params.min, constraint.params.max, 'tool calls')} in total.`;
    case 'resource.specific_tool_call_count':
      return `Call ${Object.entries(constraint.params.limits).map(([tool, max]) => `${tool} at most ${max} time${max === 1 ? '' : 's'}`).join(', ')}.`;
    case 'behavior.sequential_dependencies':
      return constraint.params.chains.map((chain) => `Call the tools in this order, each in a later message than the one before: ${chain.join(' -> ')}.`).join(' ');
    case 'behavior.parallel_dependencies':
      return describeGroups(constraint.params.groups);
    case 'behavior.parallel_calls_count': {
      const unit = constraint.params.unit === 'type' ? 'different tools' : 'tool calls';
      const parts: string[] = [];
      if (constraint.params.min > 0) parts.push(`at least once, make ${constraint.params.min} or more ${unit} in parallel in one message`);
      if (constraint.params.max !== undefined) parts.push(`never make more than ${constraint.params.max} ${unit} in one message`);
      return parts.length > 0 ? `Parallel calls: ${parts.join('; ')}.` : 'Parallel calls are allowed without limit.';
    }
    case 'toolset.available_tools':
      return 'Use only the tools provided, with argument values their schemas allow.';
    case 'toolset.required_parameters':
      return 'Always give every required parameter of a tool.';
    case 'toolset.parameter_types':
      return 'Give every parameter the type its schema declares.';
    case 'response.length':
      return `The final answer must have ${range(constraint.params.min, constraint.params.max, constraint.params.unit === 'chars' ? 'characters' : 'words')}.`;
    case 'response.format':
      switch (constraint.params.format) {
        case 'json': {
          // Says exactly what the check enforces (constraints/README.md, rule 5): strict = the JSON object alone.
          const keys = (constraint.params.requiredKeys ?? []).map((key) => `"${key}"${constraint.params.keyTypes?.[key] ? ` whose value is a ${constraint.params.keyTypes[key]}` : ''}`).join(' and ');
          const withKeys = keys === '' ? '' : ` with the key${(constraint.params.requiredKeys ?? []).length > 1 ? 's' : ''} ${keys}`;
          return constraint.params.strictness === 'lenient'
            ? `The final answer must contain a valid JSON object${withKeys}.`
            : `The final answer must be exactly one valid JSON object${withKeys}, and nothing else (a \`\`\`json fence around it is allowed).`;
        }
        case 'markdown':
          return 'Format the final answer using Markdown syntax (headings, lists, bold or italic text).';
        case 'table':
          return `Present the final answer as a Markdown table with at least ${constraint.params.minColumns ?? 2} columns.`;
        default:
          return 'Write the final answer as plain text, without any Markdown.';
      }
    case 'response.content': {
      const parts: string[] = [];
      const params = constraint.params;
      if (params.startsWith) parts.push(`must begin with "${params.startsWith}"`);
      if (params.endsWith) parts.push(`must end with the phrase "${params.endsWith}"`);
      for (const identifier of params.identifiers ?? []) {
        parts.push(
          identifier === 'double-brackets'
            ? 'must enclose each answer in double square brackets, e.g. [[X]]'
            : identifier === 'boxed'
              ? 'must enclose each answer in a LaTeX box, e.g. $\\boxed{X}$'
              : identifier === 'bold'
                ? 'must put each answer in bold, e.g. **X**'
                : 'must put each answer in double quotes, e.g. "X"',
        );
      }
      if (params.keywords?.length) parts.push(`must mention ${params.keywords.map((keyword) => `"${keyword}"`).join(', ')}`);
      if (params.endingPunctuation) parts.push(`must end with "${params.endingPunctuation}"`);
      return `The final answer ${parts.join(', ')}.`;
    }
    case 'custom':
    case 'python':
      return constraint.description ?? constraint.params.name;
  }
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
