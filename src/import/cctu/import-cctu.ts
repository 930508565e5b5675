import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PythonSandbox } from '../../python-sandbox/index.ts';
import { SandboxError } from '../../sandbox-error.ts';
import { checkWithSchema, parseJson, parseJsonWithSchema } from '../../schemas/json-with-schema.ts';
import { CctuTaskSchema, type CctuTask } from '../../schemas/cctu-task.ts';
import { CctuSampleSchema, CodesSchema, OpenAiToolSchema, UnsolvedSetSchema, type CctuSample } from './cctu-sample.ts';
import { KNOWN_EXTRA_CONFIG_KEYS, UnmappableConstraint, configKeysOf, handlerKey, isPythonHandler, isRegistered, mapConstraint } from './map-constraint.ts';
import { readCheckCode } from './read-check-code.ts';

/** CCTU's protocol: a conversation ends at 20 rounds (assistant messages) whatever its constraints say. */
export const CCTU_MAX_ROUNDS = 20;
/** CCTU's limit on one tool call. */
export const CCTU_TOOL_TIMEOUT_MS = 10_000;
/** CCTU sets no limit on tool calls; this is only a guard against a runaway model (20 rounds of 500 parallel calls). */
export const CCTU_MAX_TOOL_CALLS = 10_000;

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

/** What the import says once on stderr: keys CCTU ignores, and files it does not read. */
interface Notes {
  sampleKeys: Set<string>;
  configKeys: Set<string>;
  unread: string[];
  other: string[];
}

async function importSample(sample: CctuSample, checkCodeDir: string, sandbox: PythonSandbox, notes: Notes): Promise<CctuTask> {
  // core.py, DialogueConstraintChecker.__init__: query_id = int(id.split("_")[0]) names the folder.
  const queryId = BigInt(sample.id);
  const folder = queryId.toString();
  const where = (file: string) => `sample ${sample.id} (${file})`;
  const { files, others } = await readCheckCode(checkCodeDir, folder, (file, message) => invalid(`${where(file)}: ${message}`));
  const tools = parseJsonField(sample, 'tools', z.array(OpenAiToolSchema).min(1));
  const codes = parseJsonField(sample, 'codes', CodesSchema);
  const unsolved = parseJsonField(sample, 'unsolved_set', UnsolvedSetSchema);

  // The opening messages (response_generator.py, sample_process: the conversation starts as sample['messages']).
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

  // core.py, _init_handlers: constraint i is handled by HANDLER_REGISTRY[(primary, secondary)] and configured from
  // check_constraint_<i>.json or .py; CCTU prints and skips a pair it does not know — here that refuses the sample.
  const read = new Set<string>();
  const sampleNotes: string[] = [];
  const firstOf = new Map<string, number>();
  const constraints = sample.constraints_list.map((triple, index) => {
    const key = handlerKey(triple[0], triple[1]);
    if (!isRegistered(key)) invalid(`sample ${sample.id}: constraints_list[${index}] ${JSON.stringify([triple[0], triple[1]])} is not a pair of CCTU's HANDLER_REGISTRY (utils/constraint_checker/handlers/registry.py)`);
    // CCTU's handlers keep their configuration and counters on the one checker (handlers/*.py, configure writes
    // checker.format_checker_path, checker.max_callTimes …): a second handler of a pair replaces the first's
    // configuration, and both then check the second's (and count each call twice). Not one of the 200 released
    // samples repeats a pair; one that does is refused rather than checked otherwise than CCTU would.
    const earlier = firstOf.get(key);
    if (earlier !== undefined) invalid(`sample ${sample.id}: constraints_list[${index}] ${JSON.stringify([triple[0], triple[1]])} repeats the pair of constraints_list[${earlier}]: CCTU's handlers share the checker's state, so the later would replace the earlier's configuration (utils/constraint_checker/core.py, _init_handlers)`);
    firstOf.set(key, index);
    const name = `check_constraint_${index}.${isPythonHandler(key) ? 'py' : 'json'}`;
    const check = files.get(name);
    read.add(name);
    const file = check?.file ?? path.join(checkCodeDir, folder, name);
    try {
      const constraint = mapConstraint(index, triple, check, { queryId, tools: toolNames, note: (text) => sampleNotes.push(`sample ${sample.id}: ${text}`) });
      if (check?.kind === 'json') {
        for (const configKey of Object.keys(check.config)) if (!configKeysOf(key).includes(configKey) && !KNOWN_EXTRA_CONFIG_KEYS.includes(configKey)) notes.configKeys.add(configKey);
      }
      if (constraint.category === 'python') {
        const problem = missingFunctions(sandbox, `validator_${index}`, constraint.params.source, [constraint.params.function]);
        if (problem !== undefined) invalid(`${where(file)}: the validator ${problem}`);
      }
      return constraint;
    } catch (error) {
      if (error instanceof UnmappableConstraint) invalid(`${where(file)}: constraints_list[${index}] ${JSON.stringify(triple.slice(0, 2))}: ${error.message}`);
      throw error;
    }
  });
  notes.other.push(...sampleNotes);
  notes.unread.push(...[...files.values()].filter((check) => !read.has(path.basename(check.file))).map((check) => check.file), ...others);

  // evaluation.py, solve_rate_is_one: each golden answer must be found in a tool message of its tool.
  const subqueries = Object.entries(unsolved).flatMap(([tool, answers]) => answers.map((answer) => ({ query: '', tool, answer })));
  const rounds = constraints.find((constraint) => constraint.category === 'resource.interaction_rounds');

  const { id: _id, data_source: _source, messages, tools: _tools, codes: _codes, constraints_list, unsolved_set: _unsolved, ...extra } = sample;
  for (const key of Object.keys(extra)) notes.sampleKeys.add(key);
  const task = {
    schemaVersion: 1,
    id: taskIdOf(sample.id),
    style: CctuTaskSchema.shape.style.value,
    title: titleOf(query) || sample.id,
    domain: sample.data_source,
    system,
    query,
    protocol: 'cctu-official',
    environment: { servers: [{ name: 'mock-tools', options: { world: {} } }] },
    tools: mockTools,
    // CCTU's argument check (args_checker.py) runs last, on the calls no handler blocked (src/validator/call-feedback.ts).
    constraints: [...constraints, { id: 'toolset-cctu-arguments', category: 'toolset.cctu_arguments', params: { tools: sample.tools } }],
    // response_generator.py: max_turns=20, lowered by an interaction-rounds constraint (RoundHandler.configure);
    // CCTU limits neither the number of calls nor their time but per call (utils.py, call_function: 10 s).
    limits: { maxRounds: rounds?.category === 'resource.interaction_rounds' ? rounds.params.max : CCTU_MAX_ROUNDS, maxToolCalls: CCTU_MAX_TOOL_CALLS, toolTimeoutMs: CCTU_TOOL_TIMEOUT_MS },
    grading: { structure: sample.data_source, dataSource: sample.data_source, subqueries },
    metadata: {
      cctu: {
        id: sample.id,
        data_source: sample.data_source,
        messages,
        tools,
        constraints_list,
        refine_constraint: [...files.values()].map((check) => (check.kind === 'json' ? check.config.refine_constraint : undefined)).find((text) => typeof text === 'string'),
        ...extra,
      },
    },
  };
  const parsed = CctuTaskSchema.safeParse(task);
  if (!parsed.success) invalid(`sample ${sample.id}: does not make a valid task: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  return parsed.data;
}

function describeNotes(notes: Notes): string[] {
  const lines: string[] = [];
  const list = (keys: Set<string>) => [...keys].sort().map((key) => `"${key}"`).join(', ');
  if (notes.sampleKeys.size > 0) lines.push(`samples carry keys CCTU's code does not read, kept in each task's metadata.cctu: ${list(notes.sampleKeys)}`);
  if (notes.configKeys.size > 0) lines.push(`check_code configurations carry keys CCTU's handlers do not read, ignored as CCTU ignores them: ${list(notes.configKeys)}`);
  if (notes.unread.length > 0) lines.push(`check_code holds ${notes.unread.length} file${notes.unread.length === 1 ? '' : 's'} CCTU does not read (no constraint of that index and kind), ignored: ${notes.unread.slice(0, 3).join(', ')}${notes.unread.length > 3 ? ', …' : ''}`);
  return [...lines, ...notes.other];
}

/**
 * Converts CCTU's released benchmark (`input_data.jsonl` + `check_code/`) into tasks of the `cctu-official`
 * protocol, one per sample, as CCTU's own code reads them: the Python tools and validators stay Python, each
 * constraint keeps CCTU's configuration, handler order and feedback text, golden answers keep CCTU's matching
 * rule, and the original sample is kept in `metadata.cctu`. The first problem throws an `invalid-task`
 * SandboxError naming the sample and the file. `notes` are what deserves a word on stderr, each said once.
 */
export async function importCctu(dataPath: string, checkCodeDir: string): Promise<{ tasks: CctuTask[]; notes: string[] }> {
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
  const notes: Notes = { sampleKeys: new Set(), configKeys: new Set(), unread: [], other: [] };
  const sandbox = await PythonSandbox.open({ timeoutMs: 10_000 });
  try {
    const tasks: CctuTask[] = [];
    const seen = new Set<string>();
    for (const sample of samples) {
      if (seen.has(sample.id)) invalid(`sample ${sample.id}: the id appears twice in ${dataPath} (CCTU keys its samples by id)`);
      seen.add(sample.id);
      tasks.push(await importSample(sample, checkCodeDir, sandbox, notes));
    }
    return { tasks, notes: describeNotes(notes) };
  } finally {
    sandbox.dispose();
  }
}
