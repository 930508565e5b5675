import type { MockTool } from '../../src/schemas/cctu-task.ts';
import type { DomainSpec, ToolDef } from './domain-spec.ts';

// Optional parameters the tools take besides their key, so the toolset constraints (types, enums) have
// something to check. Which one a tool gets is fixed by its position, so a tool looks the same in every task.
const OPTIONAL_PARAMETERS: Array<[string, Record<string, unknown>]> = [
  ['detail_level', { type: 'string', enum: ['brief', 'full'], description: 'How much detail to return (default brief).' }],
  ['include_sources', { type: 'boolean', description: 'Whether to list the archive the record comes from.' }],
  ['max_results', { type: 'integer', minimum: 1, maximum: 5, description: 'How many matching records to return at most (default 1).' }],
];

/**
 * The JavaScript a mock tool runs in the isolate: find the entity by its key (exact, then partial name),
 * return its name and the tool's fields. Unknown names throw an error that lists a few valid ones,
 * so the agent can recover.
 */
function implementation(domain: string, tool: ToolDef, noun: string): string {
  const [, kind, parameter, fields] = tool;
  const article = /^[aeiou]/i.test(noun) ? 'an' : 'a';
  return `function run(args, world) {
  var table = (world.entities && world.entities[${JSON.stringify(`${domain}.${kind}`)}]) || [];
  var query = args[${JSON.stringify(parameter)}];
  if (typeof query !== 'string' || query.trim() === '') throw new Error('Provide "${parameter}" as the name of ${article} ${noun}.');
  var key = query.trim().toLowerCase();
  var hits = table.filter(function (e) { return e.name.toLowerCase() === key; });
  if (hits.length === 0) hits = table.filter(function (e) { return e.name.toLowerCase().indexOf(key) >= 0 || key.indexOf(e.name.toLowerCase()) >= 0; });
  if (hits.length === 0) throw new Error('No ${noun} named "' + query + '" was found. Known examples: ' + table.slice(0, 3).map(function (e) { return e.name; }).join('; ') + '.');
  var limit = typeof args.max_results === 'number' ? Math.max(1, Math.min(5, Math.floor(args.max_results))) : 1;
  var fields = ${JSON.stringify(fields)};
  var records = hits.slice(0, limit).map(function (e) {
    var record = { ${JSON.stringify(parameter)}: e.name };
    fields.forEach(function (f) { record[f] = e[f]; });
    if (args.include_sources === true) record.source = ${JSON.stringify(`${domain} archive`)};
    if (args.detail_level === 'full') record.note = 'Record of the ${noun} ' + e.name + '.';
    return record;
  });
  return records.length === 1 ? records[0] : { results: records };
}`;
}

/** The mock tools of a domain, as a task declares them (name, description, JSON Schema, implementation). */
export function mockToolsOf(spec: DomainSpec): MockTool[] {
  return spec.tools.map((tool, index) => {
    const [name, kind, parameter, , description] = tool;
    const noun = spec.nouns[kind] ?? kind;
    const [optionalName, optionalSchema] = OPTIONAL_PARAMETERS[index % OPTIONAL_PARAMETERS.length] as [string, Record<string, unknown>];
    return {
      name,
      description,
      parameters: {
        type: 'object',
        properties: {
          [parameter]: { type: 'string', description: `The name of the ${noun}.` },
          [optionalName]: optionalSchema,
        },
        required: [parameter],
        additionalProperties: false,
      },
      implementation: implementation(spec.domain, tool, noun),
    };
  });
}
