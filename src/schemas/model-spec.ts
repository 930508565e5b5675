import { z } from 'zod';

/**
 * A model spec string (docs/architecture.md "Formats"): `reference`, `explorer`, `replay:<trajectory>`, `scripted:<file>`, `human`,
 * `openai:<model>`, `anthropic:<model>`, `openai-compatible:<base-url>#<model>`.
 */
export const ModelSpecSchema = z.string().transform((spec, context) => {
  const colon = spec.indexOf(':');
  const kind = colon === -1 ? spec : spec.slice(0, colon);
  const rest = colon === -1 ? '' : spec.slice(colon + 1);
  switch (kind) {
    case 'reference':
    case 'explorer':
    case 'human':
      if (rest) break;
      return { kind, spec } as const;
    case 'replay':
    case 'scripted':
      if (!rest) break;
      return { kind, path: rest, spec } as const;
    case 'openai':
    case 'anthropic':
      if (!rest) break;
      return { kind, model: rest, spec } as const;
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      if (hash <= 0 || hash === rest.length - 1) break;
      return { kind, baseUrl: rest.slice(0, hash), model: rest.slice(hash + 1), spec } as const;
    }
  }
  context.addIssue({
    code: 'custom',
    message:
      `unknown model spec "${spec}": expected reference, explorer, human, replay:<trajectory>, scripted:<file>, ` +
      'openai:<model>, anthropic:<model> or openai-compatible:<base-url>#<model>',
  });
  return z.NEVER;
});
export type ModelSpec = z.output<typeof ModelSpecSchema>;

/**
 * A user model spec (`--user-model`): who plays the other side of a conversation (service episodes' customer).
 * `rule-based` (the task's deterministic customer), or a model spec that can speak for anyone: `human`,
 * `scripted:<file>`, `replay:<trajectory>` (its recorded user turns) or a provider. `reference` and `explorer` play
 * the agent's side only.
 */
export const UserModelSpecSchema = z.string().transform((spec, context) => {
  if (spec === 'rule-based') return { kind: 'rule-based', spec } as const;
  const parsed = ModelSpecSchema.safeParse(spec);
  if (parsed.success && parsed.data.kind !== 'reference' && parsed.data.kind !== 'explorer') return parsed.data;
  context.addIssue({
    code: 'custom',
    message: `unknown user model spec "${spec}": expected rule-based, human, scripted:<file>, replay:<trajectory>, openai:<model>, anthropic:<model> or openai-compatible:<base-url>#<model>`,
  });
  return z.NEVER;
});
export type UserModelSpec = z.output<typeof UserModelSpecSchema>;
