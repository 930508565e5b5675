import type Database from 'better-sqlite3';
import { z } from 'zod';
import { APPOINTMENT_SLOTS, BOOKING_WINDOW_DAYS, DEPARTMENTS, TICKET_CATEGORIES } from './catalogue.ts';
import type { AccountTable } from './read-slice.ts';
import { MONEY_COLUMNS, openCopy, type StateRow } from './session-copy.ts';

/**
 * What became of the caller's identity in a session: never checked, checked and refused (and never verified since),
 * or verified. Part of the graded outcome (state-diff.ts): refusing a caller whose details do not match is a different
 * outcome from never asking, as a real contact center's audit log would show.
 */
export type IdentityOutcome = 'not-checked' | 'refused' | 'verified';

/**
 * One service episode's state: a private copy of the customer's slice, the task's fixed "now" that every write is
 * stamped with, and what became of the caller's identity in this session.
 */
export interface ServiceSession {
  db: Database.Database;
  customerId: string;
  region: string;
  /** ISO local date-time, `YYYY-MM-DDTHH:MM:SS`. */
  now: string;
  identity: IdentityOutcome;
}

export function openSession(template: Buffer, options: { customerId: string; region: string; now: string }): ServiceSession {
  return { db: openCopy(template), ...options, identity: 'not-checked' };
}

/** A precondition that failed: the call changes nothing and the agent reads the message as a tool error. */
export class ServiceToolError extends Error {}

export interface ServiceTool {
  name: string;
  description: string;
  /** Its arguments; `inputSchema` is this as JSON Schema. */
  input: z.ZodObject;
  /** Whether it changes the session (every call of such a tool is part of what grading replays). */
  writes: boolean;
  run(session: ServiceSession, args: Record<string, unknown>): unknown;
}

const customerId = z.string().describe("The customer's id, 'CU-' and seven digits.");
const dollars = (cents: number | null): string | null => (cents === null ? null : (cents / 100).toFixed(2));
/** A row as the tools show it: money in dollars with two decimals. */
function shown(row: StateRow): Record<string, string | number | null> {
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [column, MONEY_COLUMNS.has(column) && typeof value === 'number' ? dollars(value) : value]));
}
const timestamp = (session: ServiceSession) => session.now.replace('T', ' ');
const today = (session: ServiceSession) => session.now.slice(0, 10);

/** Rows of a table: the call's customer's, or those `where` selects with `values`. */
function rows(session: ServiceSession, table: AccountTable, where?: string, ...values: unknown[]): StateRow[] {
  if (where === undefined) return session.db.prepare(`SELECT * FROM ${table} WHERE customer_id = ? ORDER BY 1`).all(session.customerId) as StateRow[];
  return session.db.prepare(`SELECT * FROM ${table} WHERE ${where} ORDER BY 1`).all(...values) as StateRow[];
}

/** The account of the call's customer; any other id is refused, so no call reads or changes another customer. */
function account(session: ServiceSession, id: unknown): StateRow {
  if (id !== session.customerId) throw new ServiceToolError(`customer ${String(id)} is not the customer on this call (${session.customerId}); nothing was read or changed`);
  return rows(session, 'accounts')[0]!;
}

/** The account, for a change: the caller verified, the account not cancelled (unless `cancelledToo`). */
function changeable(session: ServiceSession, id: unknown, cancelledToo = false): StateRow {
  const row = account(session, id);
  if (session.identity !== 'verified') throw new ServiceToolError("the caller's identity is not verified: call verify_identity with the details the customer gives first");
  if (!cancelledToo && row.status === 'cancelled') throw new ServiceToolError(`account ${session.customerId} is cancelled; it cannot be changed`);
  return row;
}

/** The next id of a table for this customer: prefix, the customer's digits and a two-digit sequence. */
function nextId(session: ServiceSession, table: AccountTable, prefix: string): string {
  const count = rows(session, table).length;
  return `${prefix}-${session.customerId.slice(3)}-${String(count + 1).padStart(2, '0')}`;
}

const normalized = (text: string) => text.trim().replace(/\s+/gu, ' ').toLowerCase();

/** Cents of a dollar amount given with at most two decimals. */
function centsOf(amount: number): number {
  const value = Math.round(amount * 100);
  if (!Number.isFinite(amount) || amount <= 0 || Math.abs(amount * 100 - value) > 1e-6) throw new ServiceToolError(`amount must be a positive number of dollars with at most two decimals (got ${amount})`);
  return value;
}

function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

/**
 * The service tools (issue 35), read and write, over a session's copy. Every precondition that fails throws a
 * ServiceToolError and leaves the copy unchanged (each write checks everything before its first statement).
 */
export const SERVICE_TOOLS: readonly ServiceTool[] = [
  {
    name: 'get_account',
    description: "The customer's account: name, status, region, plan and monthly fee, balance, credits and technician appointments. Identity details (ZIP code, PIN) are not shown: ask the customer and use verify_identity.",
    input: z.strictObject({ customer_id: customerId }),
    writes: false,
    run(session, args) {
      const row = account(session, args.customer_id);
      const plan = rows(session, 'plans', 'plan_id = ?', row.plan_id)[0]!;
      const { zip_code: _zip, pin: _pin, ...visible } = shown(row);
      return {
        ...visible,
        plan_name: plan.name,
        monthly_fee: dollars(plan.monthly_fee as number),
        identity_verified: session.identity === 'verified',
        credits: rows(session, 'credits').map(shown),
        appointments: rows(session, 'appointments').map(shown),
      };
    },
  },
  {
    name: 'list_invoices',
    description: "The customer's invoices (period, amount, status, disputed amount and reason, amount credited so far).",
    input: z.strictObject({ customer_id: customerId }),
    writes: false,
    run(session, args) {
      account(session, args.customer_id);
      return { invoices: rows(session, 'invoices').map(shown) };
    },
  },
  {
    name: 'get_outages',
    description: "Outages of a service region, open and resolved (an open outage has an expected restoration time). The region is on the customer's account.",
    input: z.strictObject({ region: z.string().describe('The service region, as get_account shows it.') }),
    writes: false,
    run(session, args) {
      if (args.region !== session.region) throw new ServiceToolError(`region ${String(args.region)} is not the region of the customer on this call (${session.region})`);
      return { region: session.region, outages: rows(session, 'outages', 'region = ?', session.region).map(shown) };
    },
  },
  {
    name: 'list_plans',
    description: 'The plan catalogue: plan id, name, tier (1 cheapest; a lower tier is a downgrade), monthly fee and speed.',
    input: z.strictObject({}),
    writes: false,
    run(session) {
      return { plans: session.db.prepare('SELECT * FROM plans ORDER BY tier').all().map((row) => shown(row as StateRow)) };
    },
  },
  {
    name: 'list_tickets',
    description: "The customer's support tickets, open and closed.",
    input: z.strictObject({ customer_id: customerId }),
    writes: false,
    run(session, args) {
      account(session, args.customer_id);
      return { tickets: rows(session, 'tickets').map(shown) };
    },
  },
  {
    name: 'verify_identity',
    description: "Verifies the caller with the details they give: full name, ZIP code and account PIN. Required before any change to the account. Says only whether they match.",
    input: z.strictObject({
      customer_id: customerId,
      full_name: z.string().describe("The caller's full name, as they say it."),
      zip_code: z.string().describe('The ZIP code of the service address, as they say it.'),
      pin: z.string().describe('The four-digit account PIN, as they say it.'),
    }),
    writes: true,
    run(session, args) {
      const row = account(session, args.customer_id);
      const matches = normalized(String(args.full_name)) === normalized(String(row.full_name)) && String(args.zip_code).trim() === row.zip_code && String(args.pin).trim() === row.pin;
      if (!matches) {
        if (session.identity === 'not-checked') session.identity = 'refused';
        throw new ServiceToolError('identity not verified: the details given do not match the account');
      }
      session.identity = 'verified';
      return { verified: true, customer_id: session.customerId };
    },
  },
  {
    name: 'issue_credit',
    description: 'Credits an amount (dollars) against one of the customer\'s invoices; a disputed invoice is then resolved. At most what is left of the invoice after earlier credits. Needs verified identity.',
    input: z.strictObject({
      customer_id: customerId,
      invoice_id: z.string().describe('The invoice to credit.'),
      amount: z.number().describe('Dollars to credit, at most two decimals.'),
      reason: z.string().describe('Why, in a few words.'),
    }),
    writes: true,
    run(session, args) {
      changeable(session, args.customer_id);
      const invoice = rows(session, 'invoices', 'invoice_id = ? AND customer_id = ?', args.invoice_id, session.customerId)[0];
      if (!invoice) throw new ServiceToolError(`invoice ${String(args.invoice_id)} is not an invoice of ${session.customerId}`);
      const amount = centsOf(args.amount as number);
      const left = (invoice.amount as number) - (invoice.credited as number);
      if (amount > left) throw new ServiceToolError(`a credit of ${dollars(amount)} exceeds what is left of invoice ${String(invoice.invoice_id)} (${dollars(left)} of ${dollars(invoice.amount as number)})`);
      const creditId = nextId(session, 'credits', 'CR');
      session.db.transaction(() => {
        session.db.prepare('INSERT INTO credits VALUES (?, ?, ?, ?, ?, ?)').run(creditId, session.customerId, invoice.invoice_id, amount, String(args.reason), timestamp(session));
        session.db.prepare("UPDATE invoices SET credited = credited + ?, status = CASE WHEN status = 'disputed' THEN 'resolved' ELSE status END WHERE invoice_id = ?").run(amount, invoice.invoice_id);
        session.db.prepare('UPDATE accounts SET balance = balance - ? WHERE customer_id = ?').run(amount, session.customerId);
      })();
      const after = rows(session, 'accounts')[0]!;
      return { credit_id: creditId, invoice_id: invoice.invoice_id, amount: dollars(amount), balance: dollars(after.balance as number) };
    },
  },
  {
    name: 'change_plan',
    description: "Moves the customer to another plan of the catalogue from today; returns the new monthly fee. The account must be active. Needs verified identity.",
    input: z.strictObject({ customer_id: customerId, plan_id: z.string().describe('The new plan, from list_plans.') }),
    writes: true,
    run(session, args) {
      const row = changeable(session, args.customer_id);
      if (row.status !== 'active') throw new ServiceToolError(`account ${session.customerId} is ${String(row.status)}; only an active account can change plan`);
      const plan = rows(session, 'plans', 'plan_id = ?', args.plan_id)[0];
      if (!plan) throw new ServiceToolError(`no plan ${String(args.plan_id)} in the catalogue (list_plans)`);
      if (plan.plan_id === row.plan_id) throw new ServiceToolError(`the customer is already on ${String(plan.plan_id)}`);
      session.db.prepare('UPDATE accounts SET plan_id = ? WHERE customer_id = ?').run(plan.plan_id, session.customerId);
      return { customer_id: session.customerId, plan_id: plan.plan_id, plan_name: plan.name, monthly_fee: dollars(plan.monthly_fee as number), effective_on: today(session) };
    },
  },
  {
    name: 'open_ticket',
    description: 'Opens a support ticket for the customer. Needs verified identity.',
    input: z.strictObject({ customer_id: customerId, category: z.enum(TICKET_CATEGORIES), summary: z.string().describe('What the ticket is about.') }),
    writes: true,
    run(session, args) {
      changeable(session, args.customer_id, true);
      const ticketId = nextId(session, 'tickets', 'TK');
      session.db.prepare("INSERT INTO tickets VALUES (?, ?, ?, ?, 'open', ?)").run(ticketId, session.customerId, timestamp(session), args.category, String(args.summary));
      return { ticket_id: ticketId, status: 'open' };
    },
  },
  {
    name: 'schedule_technician',
    description: `Books a technician visit: a date after today and at most ${BOOKING_WINDOW_DAYS} days ahead, not a Sunday, morning or afternoon; one booked visit per customer at a time. The account must be active. Needs verified identity.`,
    input: z.strictObject({
      customer_id: customerId,
      date: z.string().describe('YYYY-MM-DD'),
      slot: z.enum(APPOINTMENT_SLOTS),
      reason: z.string().describe('What the technician is to do.'),
    }),
    writes: true,
    run(session, args) {
      const row = changeable(session, args.customer_id);
      if (row.status !== 'active') throw new ServiceToolError(`account ${session.customerId} is ${String(row.status)}; visits are booked for active accounts only`);
      const date = String(args.date);
      const day = /^\d{4}-\d{2}-\d{2}$/u.test(date) ? new Date(`${date}T00:00:00Z`) : null;
      if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) throw new ServiceToolError(`date must be a calendar date YYYY-MM-DD (got "${date}")`);
      const first = addDays(today(session), 1);
      const last = addDays(today(session), BOOKING_WINDOW_DAYS);
      if (date < first || date > last) throw new ServiceToolError(`visits can be booked from ${first} to ${last} (got ${date})`);
      if (day.getUTCDay() === 0) throw new ServiceToolError(`${date} is a Sunday; technicians do not visit on Sundays`);
      const booked = rows(session, 'appointments', "customer_id = ? AND status = 'booked'", session.customerId)[0];
      if (booked) throw new ServiceToolError(`the customer already has visit ${String(booked.appointment_id)} booked for ${String(booked.scheduled_for)} (${String(booked.slot)})`);
      const appointmentId = nextId(session, 'appointments', 'AP');
      session.db.prepare("INSERT INTO appointments VALUES (?, ?, ?, ?, 'booked', ?)").run(appointmentId, session.customerId, date, args.slot, String(args.reason));
      return { appointment_id: appointmentId, date, slot: args.slot, status: 'booked' };
    },
  },
  {
    name: 'cancel_account',
    description: 'Cancels the account from today; returns the balance still owed. Needs verified identity.',
    input: z.strictObject({ customer_id: customerId, reason: z.string().describe("The customer's reason.") }),
    writes: true,
    run(session, args) {
      const row = changeable(session, args.customer_id);
      session.db.prepare("UPDATE accounts SET status = 'cancelled', cancelled_on = ? WHERE customer_id = ?").run(today(session), session.customerId);
      return { customer_id: session.customerId, status: 'cancelled', cancelled_on: today(session), balance: dollars(row.balance as number) };
    },
  },
  {
    name: 'transfer_to_human',
    description: 'Transfers the call to a human team (ends the call for you). Does not need verified identity.',
    input: z.strictObject({ customer_id: customerId, department: z.enum(DEPARTMENTS), reason: z.string().describe('Why, for the person who picks up.') }),
    writes: true,
    run(session, args) {
      account(session, args.customer_id);
      const handoffId = nextId(session, 'handoffs', 'HO');
      session.db.prepare('INSERT INTO handoffs VALUES (?, ?, ?, ?, ?)').run(handoffId, session.customerId, args.department, String(args.reason), timestamp(session));
      return { handoff_id: handoffId, department: args.department, status: 'transferred' };
    },
  },
];

/** A service tool as `tools/list` shows it: its zod arguments as JSON Schema, and whether it changes the account. */
export interface ListedServiceTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** The tools as the server lists them (and as lint hands them to the validators). */
export const SERVICE_TOOL_LISTING: readonly ListedServiceTool[] = SERVICE_TOOLS.map((tool) => {
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(tool.input) as Record<string, unknown>;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...inputSchema, type: 'object' as const },
    annotations: tool.writes
      ? { readOnlyHint: false, destructiveHint: tool.name === 'cancel_account', idempotentHint: false, openWorldHint: false }
      : { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
});

const BY_NAME = new Map(SERVICE_TOOLS.map((tool) => [tool.name, tool]));

/** What a call returns: the text the agent reads, and whether it is an error. */
export interface ServiceCallOutcome {
  text: string;
  isError: boolean;
}

/**
 * Runs one call on a session: unknown tool, arguments that do not fit the tool's schema (one line per problem) and a
 * failed precondition are errors that change nothing. The one entry point of the server and of grading's replay.
 */
export function callServiceTool(session: ServiceSession, name: string, args: unknown): ServiceCallOutcome {
  const tool = BY_NAME.get(name);
  if (!tool) return { text: `unknown tool "${name}" (known: ${[...BY_NAME.keys()].join(', ')})`, isError: true };
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    return { text: `invalid arguments for ${name}: ${parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`).join('; ')}`, isError: true };
  }
  try {
    return { text: JSON.stringify(tool.run(session, parsed.data)), isError: false };
  } catch (error) {
    if (error instanceof ServiceToolError) return { text: error.message, isError: true };
    throw error;
  }
}
