import { z } from 'zod';

/** One line of CCTU's `input_data.jsonl`. Unknown fields are kept (in the task's metadata), never dropped. */
export const CctuSampleSchema = z
  .object({
    /** `<query_id>_<category>`: the query id names the check_code folder, the category is the structure. */
    id: z.string().regex(/^[^_]+_.+$/, 'an id of the form <query_id>_<category>'),
    data_source: z.string().min(1),
    messages: z.array(z.object({ role: z.string(), content: z.string() }).loose()).min(1),
    /** JSON text: OpenAI function tools. */
    tools: z.string(),
    /** JSON text: tool name → Python source defining a function of that name. */
    codes: z.string(),
    constraints_list: z.array(z.tuple([z.string(), z.string(), z.string()])),
    /** JSON text: tool name → golden answers. */
    unsolved_set: z.string(),
  })
  .loose();
export type CctuSample = z.infer<typeof CctuSampleSchema>;

export const OpenAiToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), description: z.string().default(''), parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }) }).loose(),
}).loose();

export const CodesSchema = z.record(z.string(), z.string());
export const UnsolvedSetSchema = z.record(z.string(), z.array(z.string()));

/** A check_code file of one constraint: the JSON configuration, or the Python validator's source. */
export type CheckFile = { kind: 'json'; file: string; config: Record<string, unknown> } | { kind: 'python'; file: string; source: string };

/** The query id (check_code folder name) and the structure (score group) of a sample id. */
export function splitSampleId(id: string): { queryId: string; structure: string } {
  const at = id.indexOf('_');
  return { queryId: id.slice(0, at), structure: id.slice(at + 1) };
}
