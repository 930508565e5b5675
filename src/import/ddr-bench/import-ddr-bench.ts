import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { findEntities } from '../../graders/find-entities.ts';
import { pythonFormat } from '../../graders/python-format.ts';
import { SandboxError } from '../../sandbox-error.ts';
import type { DdrBenchJudge, DdrBenchScenario } from '../../schemas/ddr-bench.ts';
import { DdrTaskSchema, type DdrTask } from '../../schemas/ddr-task.ts';
import { parseJson } from '../../schemas/json-with-schema.ts';
import { agentSystemPrompt, agentTask, getPrompts, insightPrompts } from './read-python.ts';

function invalid(message: string): never {
  throw new SandboxError('invalid-task', message);
}

/** evaluate/prompts.py `get_entity_prefix`: what each scenario's entity is. */
const ENTITY_KIND: Record<DdrBenchScenario, string> = { mimic: 'patient', '10k': 'company', globem: 'user' };

/**
 * The column that holds a scenario's entity ids: MIMIC's `subject_id` (scripts/construct_mimic_sqlite.py indexes
 * hosp_admissions, hosp_patients, hosp_prescriptions by it), GLOBEM's `pid` (scripts/process_globem.py: "Participant
 * identifier"); 10-K's ids are CIKs (run_agent.py, CompanyBatchAnalyzer: "Analyze company with CIK …"), and its
 * database (downloaded, not built by DDR-Bench's code) is taken to name the column `cik`. `--entity-column` overrides.
 */
export const ENTITY_COLUMN: Record<DdrBenchScenario, string> = { mimic: 'subject_id', '10k': 'cik', globem: 'pid' };

/** config.yaml `agent.max_turns: 100` (run_agent.py passes it to agent/data_agent.py as --max-turns). */
const DDR_BENCH_MAX_TURNS = 100;

interface QaPair {
  question: string;
  answer: string;
  source_text?: string;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new SandboxError('not-found', `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
}

/** An id as DDR-Bench's `str(entity_id)` makes it: a string as is, an integer in decimal; anything else is refused. */
function idText(value: unknown, where: string): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return invalid(`${where}: "entity_id" must be a non-empty string or an integer, got ${JSON.stringify(value)}`);
}

/**
 * data/<scenario>/qa.json as DDR-Bench reads it (evaluate/base_evaluator.py, `load_qa_data`): `results[]`, each with
 * `entity_id` (taken as `str(entity_id)`) and `qa_pairs[]` of `question` / `answer` (and `source_text`, which the
 * evaluator only copies into its output). Where DDR-Bench silently skips an entry without `qa_pairs`, drops a pair
 * without question or answer ("Invalid QA pair") and lets a repeated id replace the earlier, the import refuses,
 * naming the entry: a checklist that would not be graded as written is a broken file, not a smaller benchmark.
 */
function readQa(file: string, text: string): Map<string, QaPair[]> {
  const data = parseJson(text, file, { code: 'invalid-task' }) as { results?: unknown } | null;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) invalid(`${file}: not a JSON object with "results"`);
  if (!Array.isArray(data.results)) invalid(`${file}: "results" is missing or not a list`);
  const entities = new Map<string, QaPair[]>();
  data.results.forEach((entry: unknown, index: number) => {
    const where = `${file} results[${index}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) invalid(`${where}: not an object`);
    const record = entry as Record<string, unknown>;
    const id = idText(record.entity_id, where);
    const named = `${where} (entity ${id})`;
    if (!('qa_pairs' in record)) invalid(`${named}: no "qa_pairs"`);
    if (!Array.isArray(record.qa_pairs) || record.qa_pairs.length === 0) invalid(`${named}: "qa_pairs" must be a non-empty list`);
    if (entities.has(id)) invalid(`${named}: the entity appears twice (DDR-Bench's load_qa_data would keep only the later)`);
    entities.set(
      id,
      record.qa_pairs.map((pair: unknown, pairIndex: number) => {
        const at = `${named} qa_pairs[${pairIndex}]`;
        const fields = (pair ?? {}) as Record<string, unknown>;
        if (typeof fields.question !== 'string' || fields.question.trim() === '') invalid(`${at}: "question" must be a non-empty string`);
        if (typeof fields.answer !== 'string' || fields.answer.trim() === '') invalid(`${at}: "answer" must be a non-empty string`);
        if (fields.source_text !== undefined && typeof fields.source_text !== 'string') invalid(`${at}: "source_text" must be a string`);
        return { question: fields.question, answer: fields.answer, ...(fields.source_text !== undefined ? { source_text: fields.source_text } : {}) };
      }),
    );
  });
  if (entities.size === 0) invalid(`${file}: "results" is empty`);
  return entities;
}

/** data/<scenario>/entity_ids.json as run_agent.py reads it (`extract_identifiers`: a JSON list, each `str(id)`). */
function readEntityIds(file: string, text: string): string[] {
  const data = parseJson(text, file, { code: 'invalid-task' });
  if (!Array.isArray(data)) invalid(`${file}: not a JSON list of entity ids (run_agent.py: "Expected a list")`);
  return data.map((value, index) => idText(value, `${file} [${index}]`));
}

/** The checkout's commit, from .git/HEAD (a ref or a detached commit); null when it is not a git checkout. */
async function commitOf(repo: string): Promise<string | null> {
  const head = (await readFile(path.join(repo, '.git', 'HEAD'), 'utf8').catch(() => '')).trim();
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = /^ref: (.+)$/.exec(head)?.[1];
  if (!ref) return null;
  const commit = (await readFile(path.join(repo, '.git', ref), 'utf8').catch(() => '')).trim();
  return /^[0-9a-f]{40}$/.test(commit) ? commit : null;
}

/** The prompts' placeholders DDR-Bench fills (evaluate/unified_evaluator.py, `evaluate_qa_with_context`, `_parse_qa_accuracy_result`), checked now so a template it cannot fill fails the import, not the grading. */
function checkTemplate(file: string, name: string, template: string, fields: readonly string[]): void {
  try {
    pythonFormat(template, Object.fromEntries(fields.map((field) => [field, ''])));
  } catch (error) {
    throw new SandboxError('invalid-input', `${file}: the ${name} prompt cannot be filled as DDR-Bench fills it: ${(error as Error).message}`);
  }
}

export interface DdrBenchImportOptions {
  repo: string;
  scenario: DdrBenchScenario;
  db: string;
  judgeProtocol: 'ours' | 'ddr-bench';
  /** The column holding entity ids (ENTITY_COLUMN of the scenario when absent). */
  entityColumn?: string;
}

/** A task id from an entity id: lower case, anything other than letters, digits, `.`, `_`, `-` as `-`. */
export function ddrBenchTaskId(scenario: DdrBenchScenario, entity: string): string {
  return `ddr-bench-${scenario}-${entity.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')}`;
}

/**
 * DDR-Bench's released checklists of one scenario as DDR tasks, one per entity its runner analyses (entity_ids.json)
 * that qa.json has a checklist for (run_evaluation.py evaluates the entities common to both): the agent's system
 * prompt and task sentence, and the judge's prompts, read from the checkout now; each QA pair a `text` item; the
 * user's database served by the SQL server (DuckDB, SQLite or PostgreSQL, by its header). The first problem throws
 * one line naming it; an entity the database does not hold is refused too. `notes`: what deserves a word on stderr.
 */
export async function importDdrBench(options: DdrBenchImportOptions): Promise<{ tasks: DdrTask[]; notes: string[] }> {
  const { repo, scenario } = options;
  const file = (relative: string) => path.join(repo, relative);
  const qaFile = file(`data/${scenario}/qa.json`);
  const idsFile = file(`data/${scenario}/entity_ids.json`);
  const qa = readQa(qaFile, await readText(qaFile));
  const listed = readEntityIds(idsFile, await readText(idsFile));
  const promptsFile = file('evaluate/prompts.py');
  const { prompts, useQaAccuracy } = getPrompts(promptsFile, await readText(promptsFile), scenario);
  const managerFile = file('agent/prompt_manager.py');
  const manager = await readText(managerFile);
  const runnerFile = file('run_agent.py');
  const runner = await readText(runnerFile);

  // evaluate_entity judges both contexts: the message-wise prompts are as required as the chat-wise ones.
  const required = ['message_system', 'message_user', 'chat_system', 'chat_user', ...(useQaAccuracy ? ['accuracy_system', 'accuracy_user'] : [])];
  for (const key of required) if (!prompts.has(key)) throw new SandboxError('invalid-input', `${promptsFile}: get_prompts("${scenario}") has no "${key}"`);
  checkTemplate(promptsFile, 'chat_user', prompts.get('chat_user')!, ['context', 'question', 'ground_truth']);
  checkTemplate(promptsFile, 'message_user', prompts.get('message_user')!, ['numbered_context', 'question', 'ground_truth']);
  const insight = insightPrompts(managerFile, manager);
  checkTemplate(managerFile, 'build_insight_prompt', insight.user, ['assistant_content', 'user_content', 'task']);
  if (useQaAccuracy) checkTemplate(promptsFile, 'accuracy_user', prompts.get('accuracy_user')!, ['ground_truth', 'model_answer']);
  const commit = await commitOf(repo);
  const judge: DdrBenchJudge = {
    scenario,
    use_qa_accuracy: useQaAccuracy,
    prompts: {
      chat_system: prompts.get('chat_system')!,
      chat_user: prompts.get('chat_user')!,
      message_system: prompts.get('message_system')!,
      message_user: prompts.get('message_user')!,
      ...(useQaAccuracy ? { accuracy_system: prompts.get('accuracy_system')!, accuracy_user: prompts.get('accuracy_user')! } : {}),
    },
    source: `${path.resolve(repo)}${commit ? ` @ ${commit}` : ''} (evaluate/prompts.py get_prompts("${scenario}"), agent/prompt_manager.py insight prompts)`,
  };

  const listedSet = new Set(listed);
  const entities = [...qa.keys()].filter((id) => listedSet.has(id));
  const notes: string[] = [];
  const unlisted = [...qa.keys()].filter((id) => !listedSet.has(id));
  if (unlisted.length > 0) notes.push(`${unlisted.length} entit${unlisted.length === 1 ? 'y' : 'ies'} of qa.json not in entity_ids.json left out (DDR-Bench's agent never analyses them): ${unlisted.slice(0, 5).join(', ')}${unlisted.length > 5 ? ', …' : ''}`);
  const unchecked = listed.filter((id) => !qa.has(id));
  if (unchecked.length > 0) notes.push(`${unchecked.length} entit${unchecked.length === 1 ? 'y' : 'ies'} of entity_ids.json without a checklist in qa.json left out (DDR-Bench evaluates none of them)`);
  if (entities.length === 0) invalid(`${qaFile}: no entity of qa.json is listed in ${idsFile}`);

  const db = path.resolve(options.db);
  const column = options.entityColumn ?? ENTITY_COLUMN[scenario];
  const { key, missing } = await findEntities(db, column, entities);
  if (missing.length > 0) invalid(`${qaFile}: entity ${missing[0]} is not in ${db} (no ${column} equal to it in any table)${missing.length > 1 ? `, nor ${missing.length - 1} other${missing.length > 2 ? 's' : ''}` : ''}`);

  const tasks = entities.map((entity) => {
    const pairs = qa.get(entity)!;
    const taskText = agentTask(runnerFile, runner, scenario, entity);
    const task = {
      schemaVersion: 1,
      id: ddrBenchTaskId(scenario, entity),
      style: 'ddr',
      title: taskText,
      domain: `DDR-Bench ${scenario}`,
      system: agentSystemPrompt(managerFile, manager, taskText),
      // DDR-Bench's agent gets the task inside its system prompt and no user message; our episodes open with one.
      query: taskText,
      environment: { servers: [{ name: 'sql', options: { dbPath: db } }] },
      limits: { maxRounds: DDR_BENCH_MAX_TURNS, maxToolCalls: DDR_BENCH_MAX_TURNS },
      // The reference states the checklist's answers as its final summary: what a perfect agent would report.
      reference: { trajectory: [{ answer: `FINISH: ${pairs.map((pair) => `${pair.question} ${pair.answer}`).join('\n')}` }] },
      grading: {
        entity: { kind: ENTITY_KIND[scenario], id: entity, key },
        scenario: `ddr-bench-${scenario}`,
        checklist: pairs.map((pair, index) => ({ id: `q${index + 1}`, question: pair.question, answer: pair.answer, answer_type: 'text' })),
        judge_protocol: options.judgeProtocol,
        // The insight prompt is filled with the session's task (agent/data_agent.py, `self.session.task`): this entity's.
        ddr_bench: { ...judge, insight: { ...insight, task: taskText } },
      },
      metadata: { ddr_bench: { scenario, entity_id: entity, source_text: pairs.map((pair) => pair.source_text ?? null) } },
    };
    const parsed = DdrTaskSchema.safeParse(task);
    if (!parsed.success) invalid(`${qaFile} entity ${entity}: does not make a valid task: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    return parsed.data;
  });
  const ids = new Map<string, string>();
  for (const [index, task] of tasks.entries()) {
    const other = ids.get(task.id);
    if (other !== undefined) invalid(`${qaFile}: entities ${other} and ${entities[index]} make the same task id ${task.id}`);
    ids.set(task.id, entities[index]!);
  }
  return { tasks, notes };
}
