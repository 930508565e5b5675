import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import type { Usage } from '../schemas/message.ts';
import { SandboxError } from '../sandbox-error.ts';
import { fromLangChainMessage, toLangChainMessages, toLangChainTools, type InvalidArgumentsPolicy } from './langchain-messages.ts';
import type { GenerationOptions, Model, ModelRequest, ModelResponse } from './model.ts';
import { costOf, type Price } from './prices.ts';
import { withRetries, type RetryPolicy } from './with-retries.ts';

/** What a LangChain-backed provider hands over; the rest (conversion, retries, usage, cost) is shared. */
export interface LangChainModelOptions {
  spec: string;
  /**
   * The chat model for a call's generation settings (`{}`: the model's own), built with `maxRetries: 0` (our retry
   * policy is the only one). LangChain's ChatOpenAICompletions and ChatAnthropic take max tokens and temperature only
   * as constructor fields (their call options have neither: `invocationParams` reads `this.maxTokens` and
   * `this.temperature`), so a call with its own limits gets a chat model of its own, made once per setting.
   */
  chatModel: (generation: GenerationOptions) => BaseChatModel;
  invalidArguments: InvalidArgumentsPolicy;
  /** The URL requests go to, named in errors. */
  endpoint: string;
  price: Price | undefined;
  policy: RetryPolicy;
}

/** Wraps a LangChain chat model as a `Model`: OpenAI-form messages in and out, retries, usage and cost per call. */
export function createLangChainModel(options: LangChainModelOptions): Model {
  const { spec } = options;
  const chatModels = new Map<string, BaseChatModel>();
  const chatModelFor = (generation: GenerationOptions = {}): BaseChatModel => {
    const key = `${generation.maxOutputTokens ?? ''}/${generation.temperature ?? ''}`;
    let chatModel = chatModels.get(key);
    if (!chatModel) {
      chatModel = options.chatModel(generation);
      if (!chatModel.bindTools) throw new SandboxError('internal', `the chat model behind ${spec} cannot bind tools`);
      chatModels.set(key, chatModel);
    }
    return chatModel;
  };
  chatModelFor();
  return {
    spec,
    generative: true,
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const messages = toLangChainMessages(request.messages, options.invalidArguments);
      const chatModel = chatModelFor(request.generation);
      // Some OpenAI-compatible servers reject an empty `tools` array: send none instead.
      const runnable = request.tools.length > 0 ? chatModel.bindTools!(toLangChainTools(request.tools)) : chatModel;
      let attempts = 0;
      const output = await withRetries(
        (signal) => {
          attempts += 1;
          return runnable.invoke(messages, { signal });
        },
        { policy: options.policy, model: spec, endpoint: options.endpoint, signal: request.signal },
      );
      if (!AIMessage.isInstance(output)) {
        throw new SandboxError('model-error', `model ${spec} at ${options.endpoint} returned a ${String((output as { type?: unknown } | undefined)?.type)} message, not an assistant message`);
      }
      const usage = usageOf(output);
      const costUsd = costOf(options.price, usage);
      if (costUsd !== undefined) usage.costUsd = costUsd;
      return { message: fromLangChainMessage(output), usage, latencyMs: performance.now() - started, attempts };
    },
  };
}

/** Token counts as the provider reported them; a count it did not report stays absent (never 0). */
function usageOf(message: AIMessage): Usage {
  const usage: Usage = {};
  // OpenAI's raw `usage` first: LangChain drops zero counts from usage_metadata.
  const raw = message.response_metadata?.usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  const input = typeof raw?.prompt_tokens === 'number' ? raw.prompt_tokens : message.usage_metadata?.input_tokens;
  const output = typeof raw?.completion_tokens === 'number' ? raw.completion_tokens : message.usage_metadata?.output_tokens;
  if (typeof input === 'number') usage.inputTokens = input;
  if (typeof output === 'number') usage.outputTokens = output;
  return usage;
}
