import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PythonSandbox } from '../../python-sandbox/index.ts';
import { SandboxError } from '../../sandbox-error.ts';
import { checkWithSchema, parseJson, parseJsonWithSchema } from '../../schemas/json-with-schema.ts';
import { CctuTaskSchema, type CctuTask } from '../../schemas/cctu-task.ts';
import type { Constraint } from '../../schemas/constraint.ts';
import { CctuSampleSchema, CodesSchema, OpenAiToolSchema, UnsolvedSetSchema, splitSampleId, type CctuSample, type CheckFile } from './cctu-sample.ts';
import { PYTHON_FUNCTIONS, UnmappableConstraint, mapConstraint } from './map-constraint.ts';
import { pythonFileFor, readCheckCode } from './read-check-code.ts';

/** CCTU's protocol: a conversation ends at 20 rounds (assistant messages) whatever its constraints say. */
export const CCTU_MAX_ROUNDS = 20;
/** CCTU's limit on one tool call. */
export const CCTU_TOOL_TIMEOUT_MS = 10_000;

/** The toolset checks CCTU runs on every call of every case. */
const TOOLSET: Constraint[] = [
  { id: 'toolset-available-tools', category: 'toolset.available_tools', params: {} },
  { id: 'toolset-required-parameters', category: 'toolset.required_parameters', params: {} },
  { id: 'toolset-parameter-types', category: 'toolset.parameter_types', params: {} },
];

function invalid(message: string): never {
  throw new SandboxError('invalid-task', message);
}

function parseJsonField<T>(sample: CctuSample, field: 'tools' | 'codes' | 'unsolved_set', schema: z.ZodType<T>): T {
  return parseJsonWithSchema(sample[field], schema, `sample ${sample.id}: "${field}"`, { code: 'invalid-task' });
}

/** A title from the query: its first line, cut at a word before 100 characters. */
function titleOf(query: string): string {
  const line = query.split('\n')[0]!.trim();
  if (line.length <= 100) return line;
  const cut = line.slice(0, 99);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 60))}…`;
}

/** A task id from a sample id: lower case, every other character than letters, digits, `.`, `_`, `-` as `-`. */
export function taskIdOf(sampleId: string): string {
  return `cctu-${sampleId.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}`;
}

/** Checks, in the Python sandbox, that `source` compiles and defines `names` (running its top level once). */
function missingFunctions(sandbox: PythonSandbox, unit: string, source: string, names: readonly string[]): string | undefined {
  const compileError = sandbox.define(unit, source);
  if (compileError !== '') return `does not compile: ${compileError}`;
  const listed = sandbox.functions(unit);
  if (!listed.ok) return `fails to load: ${listed.error}`;
  const defined = new Set(JSON.parse(listed.value) as string[]);
  const missing = names.filter((name) => !defined.has(name));
  return missing.length === 0 ? undefined : `does not define ${missing.map((name) => `${name}()`).join(', ')}`;
}

async function importSample(sample: CctuSample, checkCodeDir: string, sandbox: PythonSandbox): Promise<CctuTask> {
  const { queryId, structure } = splitSampleId(sample.id);
  const where = (file: string) => `sample ${sample.id} (${file})`;
  const checks = await readCheckCode(checkCodeDir, queryId, (file, message) => invalid(`${where(file)}: ${message}`));
  const tools = parseJsonField(sample, 'tools', z.array(OpenAiToolSchema).min(1));
  const codes = parseJsonField(sample, 'codes', CodesSchema);
  const unsolved = parseJsonField(sample, 'unsolved_set', UnsolvedSetSchema);

  // Opening messages: an optional system message, then the user's query.
  const roles = sample.messages.map((message) => message.role).join(',');
  if (roles !== 'system,user' && roles !== 'user') invalid(`sample ${sample.id}: "messages" must be [system, user] or [user], got [${roles}]`);
  const system = sample.messages.length === 2 ? sample.messages[0]!.content : '';
  const query = sample.messages.at(-1)!.content;

  const toolNames = tools.map((tool) => tool.function.name);
  const mockTools = tools.map((tool, index) => {
    const name = tool.function.name;
    const source = codes[name];
    if (source === undefined) invalid(`sample ${sample.id} (codes): no source for tool ${name}`);
    const problem = missingFunctions(sandbox, `tool_${index}`, source, [name]);
    if (problem !== undefined) invalid(`sample ${sample.id} (codes["${name}"]): the source ${problem}`);
    return { name, description: tool.function.description, parameters: tool.function.parameters, implementation: source, language: 'python' as const };
  });

  const constraints = sample.constraints_list.map((triple, index) => {
    const [primary, secondary] = triple;
    const isPython = primary === 'Response' && PYTHON_FUNCTIONS[secondary] !== undefined;
    const check: CheckFile | undefined = isPython ? pythonFileFor(index, checks) : checks.get(index)?.find((file) => file.kind === 'json');
    const file = check?.file ?? path.join(checkCodeDir, queryId, `check_constraint_${index}.${isPython ? 'py' : 'json'}`);
    try {
      const constraint = mapConstraint(index, triple, check);
      if (constraint.category === 'python') {
        const problem = missingFunctions(sandbox, `validator_${index}`, constraint.params.source, [constraint.params.function]);
        if (problem !== undefined) invalid(`${where(file)}: the validator ${problem}`);
      }
      return constraint;
    } catch (error) {
      if (error instanceof UnmappableConstraint) invalid(`${where(file)}: constraint ${index} ${JSON.stringify(triple.slice(0, 2))}: ${error.message}`);
      throw error;
    }
  });
  for (const [index, files] of checks) {
    if (index >= sample.constraints_list.length) invalid(`${where(files[0]!.file)}: constraints_list has no constraint ${index}`);
  }

  const subqueries = Object.entries(unsolved).flatMap(([tool, answers]) => {
    if (!toolNames.includes(tool)) invalid(`sample ${sample.id} (unsolved_set): golden answers for ${tool}, which "tools" does not list`);
    return answers.map((answer) => ({ query: '', tool, answer }));
  });
  if (subqueries.length === 0) invalid(`sample ${sample.id} (unsolved_set): no golden answers`);

  const { id: _id, data_source: _source, messages, tools: _tools, codes: _codes, constraints_list, unsolved_set: _unsolved, ...extra } = sample;
  const task = {
    schemaVersion: 1,
    id: taskIdOf(sample.id),
    style: 'cctu',
    title: titleOf(query) || sample.id,
    domain: sample.data_source,
    system,
    query,
    protocol: 'cctu-official',
    environment: { servers: [{ name: 'mock-tools', options: { world: {} } }] },
    tools: mockTools,
    constraints: [...constraints, ...TOOLSET],
    limits: { maxRounds: CCTU_MAX_ROUNDS, toolTimeoutMs: CCTU_TOOL_TIMEOUT_MS },
    grading: { structure, dataSource: sample.data_source, subqueries },
    metadata: {
      cctu: {
        id: sample.id,
        data_source: sample.data_source,
        messages,
        tools,
        constraints_list,
        refine_constraint: [...checks.values()].flat().map((check) => (check.kind === 'json' ? check.config.refine_constraint : undefined)).find((text) => typeof text === 'string'),
        ...extra,
      },
    },
  };
  const parsed = CctuTaskSchema.safeParse(task);
  if (!parsed.success) invalid(`sample ${sample.id}: does not make a valid task: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  return parsed.data;
}

/**
 * Converts CCTU's released benchmark (`input_data.jsonl` + `check_code/`) into tasks of the `cctu-official`
 * protocol, one per sample, losslessly: the Python tools and validators stay Python, each constraint keeps CCTU's
 * configuration, golden answers keep CCTU's matching rule, and the original sample is kept in `metadata.cctu`.
 * The first problem throws an `invalid-task` SandboxError naming the sample and the file.
 */
export async function importCctu(dataPath: string, checkCodeDir: string): Promise<CctuTask[]> {
  let text: string;
  try {
    text = await readFile(dataPath, 'utf8');
  } catch (error) {
    throw new SandboxError('not-found', `${dataPath}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  const samples = text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    const where = `${dataPath} line ${index + 1}`;
    const json = parseJson(line, where, { code: 'invalid-task' });
    const id = (json as { id?: unknown } | null)?.id;
    return [checkWithSchema(json, CctuSampleSchema, typeof id === 'string' ? `${where} (sample ${id})` : where, { code: 'invalid-task' })];
  });
  if (samples.length === 0) invalid(`${dataPath}: no samples`);
  const sandbox = await PythonSandbox.open({ timeoutMs: 10_000 });
  try {
    const tasks: CctuTask[] = [];
    const seen = new Map<string, string>();
    for (const sample of samples) {
      const task = await importSample(sample, checkCodeDir, sandbox);
      const clash = seen.get(task.id);
      if (clash !== undefined) invalid(`sample ${sample.id}: its task id ${task.id} is also sample ${clash}'s`);
      seen.set(task.id, sample.id);
      tasks.push(task);
    }
    return tasks;
  } finally {
    sandbox.dispose();
  }
}
