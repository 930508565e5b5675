import { SandboxError } from '../sandbox-error.ts';
import { ModelSpecSchema, type ModelSpec } from '../schemas/model-spec.ts';
import type { Task } from '../schemas/task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { createAnthropicModel } from './anthropic-model.ts';
import type * as ExplorerModule from './explorer.ts';
import { createHumanModel, type HumanModelOptions } from './human-model.ts';
import type { Model } from './model.ts';
import { createOpenAIModel } from './openai-model.ts';
import { createReferenceModel } from './reference-model.ts';
import { createReplayModel, readModelResponses } from './replay-model.ts';
import { createScriptedModel, parseScript } from './scripted-model.ts';
import { readTextFile } from '../schemas/json-with-schema.ts';
import type { ScriptedScript } from '../schemas/scripted.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './with-retries.ts';

/** What a model is made for; everything beyond `task` and `tools` is optional. */
export interface ModelContext {
  task: Task;
  tools: readonly ToolSpec[];
  /** Where API keys and base URLs are read; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  temperature?: number | undefined;
  /** Network providers: overrides of the retry policy (attempts, delays, per-call timeout, sleep, jitter source). */
  retry?: Partial<RetryPolicy>;
  /** `anthropic:` only: max_tokens of each response. */
  maxOutputTokens?: number;
  /** `scripted:` only: the round its first step plays (a fork's first live round); default 1. */
  firstRound?: number;
  /** `human` only: the terminal streams (default stdin / stdout). */
  terminal?: HumanModelOptions;
}

/**
 * Makes the model a spec names. A hand-written switch rather than LangChain's `initChatModel`: half the specs are
 * not LangChain chat models (reference, replay, scripted, human, explorer), `openai-compatible:<url>#<model>` is not an
 * initChatModel provider string, and the two LangChain providers need different typed options (base URL, maxTokens);
 * initChatModel would add a configurable proxy and an untyped options bag for the two lines it saves.
 */
export async function createModel(spec: string | ModelSpec, context: ModelContext): Promise<Model> {
  const parsed = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  try {
    return await makeModel(parsed, context);
  } catch (error) {
    // A model that cannot be set up (a missing key, an unreadable script or trajectory, a bad base URL) is a
    // model failure (exit 6), whatever the part that noticed it called it; a script that reads but is not a valid
    // script (bad JSON, a step failing its schema) is bad input (exit 4), as the README's table says.
    if (error instanceof SandboxError && error.details?.badScript === true) throw error;
    if (error instanceof SandboxError && (error.code === 'invalid-input' || error.code === 'not-found')) {
      throw new SandboxError('model-error', error.message, { cause: error });
    }
    throw error;
  }
}

/**
 * Sets the model a spec names up for a task and closes it again, so that a missing key or an unreadable file fails
 * the command before any trajectory is written. `human` and `explorer` have nothing to check before they play.
 */
export async function checkModelSetup(spec: string, task: Task, env?: ModelContext['env']): Promise<void> {
  const parsed = parseModelSpec(spec);
  if (parsed.kind === 'human' || parsed.kind === 'explorer') return;
  const model = await createModel(parsed, { task, tools: [], env });
  await model.close?.();
}

async function makeModel(parsed: ModelSpec, context: ModelContext): Promise<Model> {
  const env = context.env ?? process.env;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...context.retry };
  switch (parsed.kind) {
    case 'reference':
      return createReferenceModel(context.task);
    case 'scripted': {
      const text = await readTextFile(parsed.path, 'scripted model file');
      let script: ScriptedScript;
      try {
        script = parseScript(text, parsed.path);
      } catch (error) {
        if (!(error instanceof SandboxError)) throw error;
        throw new SandboxError('invalid-input', error.message, { cause: error, details: { badScript: true } });
      }
      return createScriptedModel(script, parsed.spec, context.firstRound);
    }
    case 'replay':
      return createReplayModel(await readModelResponses(parsed.path, context.task), parsed.spec);
    case 'human':
      return createHumanModel(context.terminal);
    case 'openai':
    case 'openai-compatible':
      return createOpenAIModel({
        spec: parsed.spec,
        model: parsed.model,
        baseUrl: parsed.kind === 'openai-compatible' ? parsed.baseUrl : undefined,
        env,
        temperature: context.temperature,
        policy,
      });
    case 'anthropic':
      return createAnthropicModel({ spec: parsed.spec, model: parsed.model, env, temperature: context.temperature, maxOutputTokens: context.maxOutputTokens, policy });
    case 'explorer':
      return createExplorer(context);
  }
}

/** Parses a model spec string; an unknown form throws `invalid-input` listing the forms. */
export function parseModelSpec(spec: string): ModelSpec {
  const parsed = ModelSpecSchema.safeParse(spec);
  if (!parsed.success) throw new SandboxError('invalid-input', parsed.error.issues[0]?.message ?? `invalid model spec "${spec}"`);
  return parsed.data;
}

/** `explorer` lives in ./explorer.ts (the DDR part): imported only when asked for, so other runs do not load it. */
async function createExplorer(context: ModelContext): Promise<Model> {
  let module: typeof ExplorerModule;
  try {
    module = await import('./explorer.ts');
  } catch (error) {
    throw new SandboxError('internal', `the explorer model is not available: src/models/explorer.ts failed to load (${(error as Error).message})`, { cause: error });
  }
  return module.createExplorerModel(context);
}
