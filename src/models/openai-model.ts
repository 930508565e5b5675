import { ChatOpenAICompletions } from '@langchain/openai';
import { SandboxError } from '../sandbox-error.ts';
import { createLangChainModel } from './langchain-model.ts';
import type { Model } from './model.ts';
import { lookupPrice } from './prices.ts';
import type { RetryPolicy } from './with-retries.ts';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** Local servers (Ollama, llama.cpp, LM Studio) ignore the key, but the OpenAI client refuses to start without one. */
const LOCAL_DUMMY_KEY = 'not-needed';

export interface OpenAIModelOptions {
  spec: string;
  model: string;
  /** `openai-compatible:<base-url>#<model>`; absent for `openai:<model>`. */
  baseUrl?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  temperature?: number | undefined;
  policy: RetryPolicy;
}

/**
 * `openai:<model>` (key from OPENAI_API_KEY, base URL from OPENAI_BASE_URL or api.openai.com) and
 * `openai-compatible:<base-url>#<model>` (vLLM, Ollama, llama.cpp server, LM Studio; key from
 * OPENAI_COMPATIBLE_API_KEY, else a dummy). Speaks Chat Completions through LangChain's `ChatOpenAICompletions` —
 * the Chat Completions half of `ChatOpenAI`, chosen directly because `ChatOpenAI` switches some models to the
 * Responses API, which compatible servers do not speak.
 */
export function createOpenAIModel(options: OpenAIModelOptions): Model {
  const compatible = options.baseUrl !== undefined;
  const baseUrl = (options.baseUrl ?? options.env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(baseUrl)) {
    throw new SandboxError('invalid-input', `model spec ${options.spec}: base URL "${baseUrl}" is not an http(s) URL (e.g. http://localhost:11434/v1)`);
  }
  const apiKey = compatible ? (options.env.OPENAI_COMPATIBLE_API_KEY ?? LOCAL_DUMMY_KEY) : options.env.OPENAI_API_KEY;
  if (!apiKey) {
    throw new SandboxError('invalid-input', `model ${options.spec} needs OPENAI_API_KEY in the environment`);
  }
  return createLangChainModel({
    spec: options.spec,
    // LangChain's `maxTokens` goes on the wire as `max_tokens`, or as `max_completion_tokens` for the models it
    // counts as reasoning models (o-series, gpt-5 but gpt-5-chat), which refuse `max_tokens`.
    chatModel: (generation) => {
      const temperature = generation.temperature ?? options.temperature;
      return new ChatOpenAICompletions({
        model: options.model,
        apiKey,
        configuration: { baseURL: baseUrl },
        maxRetries: 0,
        ...(temperature === undefined ? {} : { temperature }),
        ...(generation.maxOutputTokens === undefined ? {} : { maxTokens: generation.maxOutputTokens }),
      });
    },
    invalidArguments: 'raw',
    endpoint: `${baseUrl}/chat/completions`,
    price: compatible ? undefined : lookupPrice('openai', options.model),
    policy: options.policy,
  });
}
