import { z } from 'zod';
import { referenceBaseShape, taskBaseShape } from './task-base.ts';

/**
 * The problem kinds of service episodes (issue 35): what the customer calls about. `identity-failed` and
 * `out-of-policy` are the kinds whose right outcome is a refusal; `escalation` one that ends in a transfer.
 */
export const SERVICE_PROBLEM_KINDS = [
  'billing-dispute',
  'outage',
  'plan-change',
  'cancellation-threat',
  'technician-visit',
  'duplicate-charge',
  'identity-failed',
  'out-of-policy',
  'escalation',
] as const;

/** What the right outcome of the call is: the customer's goal met, refused under a policy, or handed to a person. */
export const SERVICE_OUTCOMES = ['resolve', 'refuse', 'transfer'] as const;

/**
 * The `service` server's options in a task's environment (`environment.servers[].options`): which customer's slice of
 * which contact-center build, and the fixed "now" every write is stamped with. Read by the server's factory and by
 * the grader, which replays calls on the same slice.
 */
export const ServiceOptionsSchema = z.strictObject({
  /** The customer served (default: the task's `customer.customerId`). */
  customerId: z.string().regex(/^CU-\d{7}$/u).optional(),
  /** The fixed "now" (default 2026-07-01T09:00:00, databases/contact-center/accounts/catalogue.ts). */
  now: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/u, 'YYYY-MM-DDTHH:MM:SS').optional(),
  /** Serve this contact-center DuckDB file instead of the generated one. */
  dbPath: z.string().min(1).optional(),
  /** Size and seed of the generated contact-center database (the generator's defaults when absent). */
  calls: z.number().int().positive().optional(),
  seed: z.number().int().nonnegative().optional(),
});
export type ServiceOptions = z.infer<typeof ServiceOptionsSchema>;

/** One state-changing call of the gold solution, replayed on a fresh copy of the slice to get the expected state. */
export const GoldActionSchema = z.object({
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
  /**
   * The service must refuse this call (a tool error): an attempt that is part of the right outcome all the same — the
   * caller's details checked and refused (`verify_identity` with what the customer said) leaves the identity outcome
   * `refused`, where never asking leaves it `not-checked` (databases/contact-center/accounts/state-diff.ts).
   */
  fails: z.literal(true).optional(),
});
export type GoldAction = z.infer<typeof GoldActionSchema>;

/**
 * Whether a message contains a customer phrase (`askedBy`, `goalMet`, `refused`), as the rule-based customer and
 * `sandbox lint` read it: case aside, the phrase starts a word (no letter or digit before it: "pin" is not in
 * "shipping") and no digit follows it ("9.00" is not in "19.00" or "9.005"); letters may follow, so "credit" is in
 * "credited".
 */
export function containsPhrase(message: string, phrase: string): boolean {
  const escaped = phrase.toLowerCase().replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?!\\p{N})`, 'u').test(message.toLowerCase());
}

/**
 * The simulated customer: who calls, what they want and what they know. The rule-based customer answers only from
 * `facts`, says a fact only when the agent's message asks for it (one of its `askedBy` phrases), and hangs up when
 * the agent's message meets its goal (`goalMet`: every phrase group matched) or refuses it (`refused`), or after
 * `maxTurns` of its own turns. An LLM customer gets a persona prompt built from the same fields.
 */
export const CustomerSchema = z.object({
  /** The customer whose slice of the warehouse the episode copies; every write tool refuses any other id. */
  customerId: z.string().regex(/^CU-\d{7}$/u),
  /** Name and manner, for an LLM customer's persona prompt. */
  persona: z.string().min(1),
  /** The goal in the customer's words (persona prompt). */
  goal: z.string().min(1),
  /** The customer's first message: the episode's opening user message. */
  opening: z.string().min(1),
  /** What the customer knows and can say, by name (full name, postcode, the disputed invoice …). */
  facts: z.array(z.object({
    name: z.string().min(1),
    value: z.string().min(1),
    /** Lower-case phrases; the rule-based customer says the fact when the agent's last message contains one. */
    askedBy: z.array(z.string().min(1)).min(1),
    /** Said without being asked, in the opening or the first reply. */
    volunteered: z.boolean().default(false),
  })).default([]),
  /** Phrase groups (lower case): the goal is met when the agent's message contains one phrase of every group. */
  goalMet: z.array(z.array(z.string().min(1)).min(1)).default([]),
  /** Phrases (lower case) by which the agent refuses the request; the customer then accepts and hangs up. */
  refused: z.array(z.string().min(1)).default([]),
  /** The customer's turns before it hangs up regardless. */
  maxTurns: z.number().int().positive().default(8),
});
export type Customer = z.infer<typeof CustomerSchema>;

/**
 * A service episode (issue 35): a customer calls; the agent serves them with tools that read and change a
 * per-episode copy of the customer's slice of the contact-center warehouse, under the task's policy constraints.
 * Graded by the final state (against `reference.actions` replayed on a fresh copy), the values the agent had to
 * tell the customer, and the policies' verdicts.
 */
export const ServiceTaskSchema = z.object({
  ...taskBaseShape,
  style: z.literal('service'),
  customer: CustomerSchema,
  reference: z.object({
    ...referenceBaseShape,
    /** The state-changing calls of the gold solution, in order (none when the right outcome changes nothing). */
    actions: z.array(GoldActionSchema).default([]),
  }),
  grading: z.object({
    kind: z.enum(SERVICE_PROBLEM_KINDS),
    outcome: z.enum(SERVICE_OUTCOMES),
    /** Values the agent must say to the customer (in any of its messages to them), each with its accepted forms. */
    requiredValues: z.array(z.object({
      name: z.string().min(1),
      value: z.string().min(1),
      /** Numeric tolerance (absolute) when the value is a number; exact otherwise. */
      tolerance: z.number().nonnegative().optional(),
    })).default([]),
    /** Ids of the task's constraints that are policies (their verdicts decide success). */
    policies: z.array(z.string()).default([]),
  }),
});
export type ServiceTask = z.infer<typeof ServiceTaskSchema>;
