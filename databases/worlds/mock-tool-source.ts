import type { MockTool } from '../../src/schemas/cctu-task.ts';
import { roleOf } from './catalog.ts';
import type { DomainSpec, ToolDef } from './domain-spec.ts';

// A tool as a task declares it: a JSON Schema of a real API's shape (a patterned key, an enum array of fields,
// a nested options object, bounded integers, defaults) and a description of a real API's length (what it
// returns, how it matches, its options, its errors and limits), so prompts are as long as CCTU's.

const label = (field: string): string => field.replace(/_/g, ' ');

function fieldType(spec: DomainSpec, kind: string, field: string): string {
  const generator = spec.kinds[kind]?.attributes[field] ?? '';
  if (generator.startsWith('int:')) return 'integer';
  if (generator.startsWith('ref:') || generator.startsWith('xref:')) return 'string, the name of a related record';
  return 'string';
}

const OPTIONS_SCHEMA = {
  type: 'object',
  description: 'Presentation options. Every key is optional.',
  properties: {
    detail_level: { type: 'string', enum: ['brief', 'full'], default: 'brief', description: '"full" adds a one-line note describing the record.' },
    include_sources: { type: 'boolean', default: false, description: 'Whether to name the registry the record comes from.' },
    locale: { type: 'string', pattern: '^[a-z]{2}(-[A-Z]{2})?$', default: 'en', description: 'BCP 47 language tag for free-text notes (values are never translated).' },
  },
  additionalProperties: false,
};

function description(spec: DomainSpec, tool: ToolDef): string {
  const [name, kind, parameter, fields, purpose] = tool;
  const noun = spec.nouns[kind] ?? kind;
  const common = [
    `Matching: \`${parameter}\` is compared case-insensitively with the canonical names of the ${spec.domain} registry, first exactly, then as a substring of the name (or the name as a substring of it).`,
    'Options: `options.detail_level` ("brief" or "full", default "brief"), `options.include_sources` (default false) and `options.locale` (default "en") only change the presentation, never the values.',
    `Errors: when no ${noun} matches, the call fails with a message that lists a few known names; correct the spelling and call again. Malformed arguments are rejected before the lookup runs.`,
    `Limits: 60 requests per minute per session; records are refreshed nightly, so repeated calls within a session return identical data. ${name} is read-only and safe to call in parallel with other tools.`,
  ];
  if (roleOf(tool) === 'search') {
    return [
      `${purpose}`,
      `Use it to discover how a ${noun} is spelled in the registry before calling a lookup tool; it returns names only, never attributes.`,
      `Returns: \`matches\` (array of strings, the canonical names that contain \`${parameter}\`, in registry order) and \`total\` (integer, how many names matched before \`max_results\` was applied).`,
      `Paging: \`max_results\` (1–25, default 10) caps the list; \`sort\` ("registry" or "alphabetical", default "registry") orders it.`,
      ...common,
    ].join('\n');
  }
  if (roleOf(tool) === 'revisions') {
    return [
      `${purpose}`,
      `Use it for auditing who changed a ${noun} record and how often; it does not return the record's attributes, so it cannot answer questions about the ${noun} itself.`,
      `Returns: \`${parameter}\` (string, the canonical name), \`revisions\` (integer, number of accepted edits) and \`last_reviewed_by\` (string, the editor who approved the latest edit).`,
      ...common,
    ].join('\n');
  }
  const returned = fields.map((field) => `\`${field}\` (${fieldType(spec, kind, field)}): the ${label(field)} of the ${noun}`).join('; ');
  return [
    `${purpose}`,
    `Use it when you already know the name of the ${noun}; it looks the record up in the ${spec.domain} registry and returns one JSON object per match.`,
    `Returns: \`${parameter}\` (string, the canonical name); ${returned}. Other attributes of the ${noun} are served by other tools.`,
    `Field selection: \`fields\` restricts the answer to the listed attributes (default: all of them); an empty list is rejected.`,
    `Several matches: only the first is returned unless \`max_results\` (1–5, default 1) is raised, in which case the records come under \`results\`.`,
    ...common,
  ].join('\n');
}

function parameters(spec: DomainSpec, tool: ToolDef): Record<string, unknown> {
  const [, kind, parameter, fields] = tool;
  const noun = spec.nouns[kind] ?? kind;
  const key = { type: 'string', minLength: 1, maxLength: 120, pattern: '^[^\\n\\r\\t]+$', description: `The name of the ${noun}, as the registry spells it (a partial name matches too).` };
  if (roleOf(tool) === 'search') {
    return {
      type: 'object',
      properties: {
        [parameter]: { ...key, description: `A prefix or fragment of the ${noun}'s name to search for.` },
        max_results: { type: 'integer', minimum: 1, maximum: 25, default: 10, description: 'How many names to list at most.' },
        sort: { type: 'string', enum: ['registry', 'alphabetical'], default: 'registry', description: 'Order of the listed names.' },
        options: OPTIONS_SCHEMA,
      },
      required: [parameter],
      additionalProperties: false,
    };
  }
  if (roleOf(tool) === 'revisions') {
    return { type: 'object', properties: { [parameter]: key, options: OPTIONS_SCHEMA }, required: [parameter], additionalProperties: false };
  }
  return {
    type: 'object',
    properties: {
      [parameter]: key,
      fields: { type: 'array', items: { type: 'string', enum: fields }, minItems: 1, uniqueItems: true, default: fields, description: 'Which attributes to return (default: all).' },
      max_results: { type: 'integer', minimum: 1, maximum: 5, default: 1, description: 'How many matching records to return at most.' },
      options: OPTIONS_SCHEMA,
    },
    required: [parameter],
    additionalProperties: false,
  };
}

/**
 * The JavaScript a mock tool runs in the isolate: find the entity by its key (exact, then partial name) and
 * answer by the tool's role. Unknown names throw an error that lists a few valid ones, so the agent can recover.
 */
function implementation(domain: string, tool: ToolDef, noun: string): string {
  const [, kind, parameter, fields] = tool;
  const article = /^[aeiou]/i.test(noun) ? 'an' : 'a';
  const lookup = `  var table = (world.entities && world.entities[${JSON.stringify(`${domain}.${kind}`)}]) || [];
  var query = args[${JSON.stringify(parameter)}];
  if (typeof query !== 'string' || query.trim() === '') throw new Error('Provide "${parameter}" as the name of ${article} ${noun}.');
  var key = query.trim().toLowerCase();
  var options = args.options || {};`;
  const find = `  var hits = table.filter(function (e) { return e.name.toLowerCase() === key; });
  if (hits.length === 0) hits = table.filter(function (e) { return e.name.toLowerCase().indexOf(key) >= 0 || key.indexOf(e.name.toLowerCase()) >= 0; });
  if (hits.length === 0) throw new Error('No ${noun} named "' + query + '" was found. Known examples: ' + table.slice(0, 3).map(function (e) { return e.name; }).join('; ') + '.');`;
  const decorate = `    if (options.include_sources === true) record.source = ${JSON.stringify(`${domain} registry`)};
    if (options.detail_level === 'full') record.note = 'Record of the ${noun} ' + e.name + '.';`;
  if (roleOf(tool) === 'search') {
    return `function run(args, world) {
${lookup}
  var names = table.map(function (e) { return e.name; }).filter(function (n) { return n.toLowerCase().indexOf(key) >= 0; });
  if (args.sort === 'alphabetical') names = names.slice().sort();
  var limit = typeof args.max_results === 'number' ? Math.max(1, Math.min(25, Math.floor(args.max_results))) : 10;
  return { matches: names.slice(0, limit), total: names.length };
}`;
  }
  if (roleOf(tool) === 'revisions') {
    return `function run(args, world) {
${lookup}
${find}
  var e = hits[0];
  var editors = ['registry-bot', 'a.curator', 'data-steward', 'field-editor'];
  var record = { ${JSON.stringify(parameter)}: e.name, revisions: 1 + (e.name.length % 9), last_reviewed_by: editors[e.name.length % editors.length] };
${decorate}
  return record;
}`;
  }
  return `function run(args, world) {
${lookup}
${find}
  var limit = typeof args.max_results === 'number' ? Math.max(1, Math.min(5, Math.floor(args.max_results))) : 1;
  var fields = Array.isArray(args.fields) && args.fields.length > 0 ? args.fields : ${JSON.stringify(fields)};
  var records = hits.slice(0, limit).map(function (e) {
    var record = { ${JSON.stringify(parameter)}: e.name };
    fields.forEach(function (f) { record[f] = e[f]; });
${decorate}
    return record;
  });
  return records.length === 1 ? records[0] : { results: records };
}`;
}

/** One tool of a domain, as a task declares it (name, description, JSON Schema, implementation). */
export function mockToolOf(spec: DomainSpec, tool: ToolDef): MockTool {
  return { name: tool[0], description: description(spec, tool), parameters: parameters(spec, tool), implementation: implementation(spec.domain, tool, spec.nouns[tool[1]] ?? tool[1]) };
}

/** The mock tools of a domain. */
export function mockToolsOf(spec: DomainSpec): MockTool[] {
  return spec.tools.map((tool) => mockToolOf(spec, tool));
}
