import { z } from 'zod';

/**
 * One line of CCTU's `input_data.jsonl`, as CCTU's code reads it (github Junjie-Ye/CCTU): `id` is the sample's
 * number (core.py, DialogueConstraintChecker.__init__: `int(sample["id"].split("_")[0])` names check_code/<id>/;
 * response_generator.py and evaluation.py, main: `f"{id}_{i}"` appends the repeat index, so an id holding `_`
 * would be misread by evaluation.py's `id.split('_')[1]`); `data_source` is the structure evaluation.py groups
 * by; `tools`, `codes` and `unsolved_set` are JSON text (json.loads in core.py, response_generator.py's
 * get_feedback, evaluation.py's judge); `messages` opens the conversation (response_generator.py, sample_process).
 * Other keys are ignored by CCTU and kept here (in the task's metadata).
 */
export const CctuSampleSchema = z
  .object({
    id: z.string().regex(/^\d+$/, 'the sample number as a string of digits ("0" … "199"): CCTU appends "_<repeat>" itself'),
    data_source: z.string().min(1),
    messages: z.array(z.object({ role: z.string(), content: z.string() }).loose()).min(1),
    tools: z.string(),
    codes: z.string(),
    constraints_list: z.array(z.tuple([z.string(), z.string(), z.string()])),
    unsolved_set: z.string(),
  })
  .loose();
export type CctuSample = z.infer<typeof CctuSampleSchema>;

/** tool_specs.py, build_tool_name_list / build_tools_doc: a function tool with a name and a parameters object. */
export const OpenAiToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), description: z.string().default(''), parameters: z.record(z.string(), z.unknown()) }).loose(),
}).loose();

export const CodesSchema = z.record(z.string(), z.string());
/** evaluation.py, solve_rate_is_one: tool name → golden answers. */
export const UnsolvedSetSchema = z.record(z.string(), z.array(z.string()));

/** A check_code file of one constraint: the JSON configuration, or the Python validator's source. */
export type CheckFile = { kind: 'json'; file: string; config: Record<string, unknown> } | { kind: 'python'; file: string; source: string };
