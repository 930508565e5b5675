import { SandboxError } from '../sandbox-error.ts';
import { ScriptedScriptSchema, type ScriptedScript } from '../schemas/scripted.ts';
import type { Model, ModelRequest, ModelResponse } from './model.ts';
import { nextRound, playbackMessage } from './playback-message.ts';
import { parseJsonWithSchema } from '../schemas/json-with-schema.ts';

/** Parses a scripted model's JSON text; a bad file throws `invalid-input` naming the file, the step index and the field. */
export function parseScript(text: string, file: string): ScriptedScript {
  return parseJsonWithSchema(text, ScriptedScriptSchema, file);
}

/**
 * `scripted:<file>`: sends the script's assistant messages in order, one per round; the first step is round
 * `firstRound` (1, or the first live round of a fork: `sandbox fork --at N` plays step 1 at round N + 1).
 */
export function createScriptedModel(script: ScriptedScript, spec: string, firstRound = 1): Model {
  return {
    spec,
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const round = nextRound(request.messages);
      const step = script[round - firstRound];
      if (!step) {
        throw new SandboxError('invalid-input', `${spec}: the script has ${script.length} step(s) and round ${round} asks for another${firstRound > 1 ? ` (its first step played round ${firstRound})` : ''}`);
      }
      const message = step.answer !== undefined ? playbackMessage({ answer: step.answer }, round) : playbackMessage({ toolCalls: step.toolCalls ?? [], content: step.content }, round);
      return { message, usage: { ...step.usage }, latencyMs: performance.now() - started };
    },
  };
}
