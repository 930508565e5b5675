export { startLoopbackServer, type LoopbackReply, type LoopbackServer, type RecordedRequest, type ReplyPlan } from './loopback-server.ts';
export { startOpenAIServer, chatCompletion, openAIError, type OpenAITurn } from './openai-wire.ts';
export { startAnthropicServer, anthropicMessage, anthropicError, type AnthropicTurn } from './anthropic-wire.ts';
export { weatherTask, WEATHER_TOOL } from './weather-task.ts';
export { startRedisServer, type AppendFsync, type RedisServer } from './redis-server.ts';
export { startReferenceOpenAIServer, type ReferenceOpenAIServer } from './reference-wire.ts';
export { sandbox, sandboxInBackground, stopSandbox, untimedTrajectory, type SandboxProcess } from './sandbox-cli.ts';
