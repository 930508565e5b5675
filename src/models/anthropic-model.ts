import { ChatAnthropic } from '@langchain/anthropic';
import { SandboxError } from '../sandbox-error.ts';
import { createLangChainModel } from './langchain-model.ts';
import type { Model } from './model.ts';
import { lookupPrice } from './prices.ts';
import type { RetryPolicy } from './with-retries.ts';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Messages API requires max_tokens; enough for a long final answer, small enough for every current model. */
const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;

export interface AnthropicModelOptions {
  spec: string;
  model: string;
  env: Readonly<Record<string, string | undefined>>;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
  policy: RetryPolicy;
}

/** `anthropic:<model>`: the Messages API through LangChain's ChatAnthropic; ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL. */
export function createAnthropicModel(options: AnthropicModelOptions): Model {
  const apiKey = options.env.ANTHROPIC_API_KEY;
  if (!apiKey) throw new SandboxError('invalid-input', `model ${options.spec} needs ANTHROPIC_API_KEY in the environment`);
  const baseUrl = (options.env.ANTHROPIC_BASE_URL ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '');
  return createLangChainModel({
    spec: options.spec,
    chatModel: (generation) => {
      const temperature = generation.temperature ?? options.temperature;
      return new ChatAnthropic({
        model: options.model,
        apiKey,
        anthropicApiUrl: baseUrl,
        maxRetries: 0,
        maxTokens: generation.maxOutputTokens ?? options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        ...(temperature === undefined ? {} : { temperature }),
      });
    },
    // The Messages API takes tool_use input only as an object.
    invalidArguments: 'empty-object',
    endpoint: `${baseUrl}/v1/messages`,
    price: lookupPrice('anthropic', options.model),
    policy: options.policy,
  });
}
