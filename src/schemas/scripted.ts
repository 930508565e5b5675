import { z } from 'zod';
import { UsageSchema } from './message.ts';

/** One tool call of a scripted step: `arguments` as an object, or as a string passed raw (so tests can send invalid JSON). */
export const ScriptedToolCallSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()], {
    error: 'expected an object of arguments, or a string sent raw (e.g. invalid JSON)',
  }),
});

/**
 * One assistant message of a `scripted:<file>` model: `{ toolCalls, content? }` or `{ answer }`.
 * `usage` (optional) is reported as the call's token usage, so tests can drive token limits.
 * One object shape with a refinement rather than a union, so a bad step is reported at its own field.
 */
export const ScriptedStepSchema = z
  .strictObject({
    toolCalls: z.array(ScriptedToolCallSchema).min(1).optional(),
    content: z.string().optional(),
    answer: z.string().optional(),
    usage: UsageSchema.optional(),
  })
  .superRefine((step, context) => {
    if ((step.toolCalls === undefined) === (step.answer === undefined)) {
      context.addIssue({ code: 'custom', message: 'a step has exactly one of "toolCalls" (an array of { name, arguments }) or "answer" (a string)' });
    } else if (step.answer !== undefined && step.content !== undefined) {
      context.addIssue({ code: 'custom', path: ['content'], message: '"content" goes with "toolCalls"; an answer step has only "answer"' });
    }
  });
export type ScriptedStep = z.infer<typeof ScriptedStepSchema>;

/** A scripted model's file: the assistant messages it sends, in order. */
export const ScriptedScriptSchema = z.array(ScriptedStepSchema).min(1, 'a script needs at least one step');
export type ScriptedScript = z.infer<typeof ScriptedScriptSchema>;
