import type { TableDoc } from '../columns.ts';
import { ACCOUNT_STATUSES, APPOINTMENT_SLOTS, DEPARTMENTS, INVOICE_STATUSES, OUTAGE_SERVICES, PLANS, REGIONS, TICKET_CATEGORIES } from './catalogue.ts';

const values = (list: readonly string[]) => list.map((value) => `'${value}'`).join(', ');

/**
 * Column documentation of the `accounts` schema (the service episodes' account state), written into the database as
 * `COMMENT ON` beside the warehouse's own (`../columns.ts`), which stays the documentation of `main` alone.
 */
export const ACCOUNT_TABLES: Record<string, TableDoc> = {
  plans: {
    description: 'The plan catalogue: one row per plan a customer can be on.',
    columns: {
      plan_id: `Plan identifier: ${values(PLANS.map((plan) => plan.planId))}.`,
      name: 'Plan name as customers know it.',
      tier: 'Tier from 1 (cheapest) to 5; moving to a lower tier is a downgrade.',
      monthly_fee: 'Monthly fee in dollars.',
      speed_mbps: 'Download speed in megabits per second.',
    },
  },
  accounts: {
    description: 'One row per customer account (customers.customer_id): identity facts, plan, status and balance on 2026-07-01.',
    columns: {
      customer_id: "The customer (customers.customer_id), 'CU-' and seven digits.",
      full_name: 'Account holder\'s full name (synthetic); one of the identity checks.',
      zip_code: 'Five-digit ZIP code of the service address; one of the identity checks.',
      pin: 'Four-digit account PIN the customer chose; one of the identity checks.',
      region: `Service region (outages are per region): ${values(REGIONS)}.`,
      plan_id: 'The current plan (plans.plan_id).',
      status: `Account status: ${values(ACCOUNT_STATUSES)}.`,
      balance: 'Amount owed in dollars: invoices not paid minus credits (negative = credit in the customer\'s favour).',
      opened_on: 'When the account was opened.',
      cancelled_on: 'When the account was cancelled; NULL while it is not.',
    },
  },
  invoices: {
    description: "Monthly invoices, January–June 2026, issued on the 28th; a duplicate charge is a second invoice for the same period (sequence '-07').",
    columns: {
      invoice_id: "Invoice identifier, 'INV-', the customer's seven digits, '-' and a two-digit sequence.",
      customer_id: 'The customer (accounts.customer_id).',
      period: "Billing month, 'YYYY-MM'.",
      issued_on: 'Date the invoice was issued.',
      due_on: 'Date payment is due (14 days after issue).',
      amount: 'Invoice total in dollars.',
      status: `Invoice status: ${values(INVOICE_STATUSES)} ('resolved': a dispute settled by a credit).`,
      disputed_amount: 'Dollars of the invoice the customer disputes; NULL when not disputed.',
      dispute_reason: 'What the customer says is wrong; NULL when not disputed.',
      credited: 'Dollars credited against this invoice so far.',
    },
  },
  credits: {
    description: 'Credits issued to customers, one row per credit, each against an invoice.',
    columns: {
      credit_id: "Credit identifier, 'CR-', the customer's seven digits, '-' and a sequence.",
      customer_id: 'The customer (accounts.customer_id).',
      invoice_id: 'The invoice credited (invoices.invoice_id).',
      amount: 'Credit in dollars.',
      reason: 'Why the credit was issued.',
      issued_at: 'When the credit was issued.',
    },
  },
  outages: {
    description: "Service outages per region: past ones resolved, and on 2026-07-01 some regions' current one open.",
    columns: {
      outage_id: "Outage identifier, 'OUT-' and digits.",
      region: `The region affected: ${values(REGIONS)}.`,
      service: `The service affected: ${values(OUTAGE_SERVICES)}.`,
      started_at: 'When the outage started.',
      resolved_at: 'When service was restored; NULL while the outage is open.',
      expected_restoration: 'For an open outage, when service is expected back; NULL otherwise.',
      status: "'open' or 'resolved'.",
    },
  },
  tickets: {
    description: 'Support tickets, one row per ticket.',
    columns: {
      ticket_id: "Ticket identifier, 'TK-', the customer's seven digits, '-' and a sequence.",
      customer_id: 'The customer (accounts.customer_id).',
      opened_at: 'When the ticket was opened.',
      category: `Ticket category: ${values(TICKET_CATEGORIES)}.`,
      status: "'open' or 'closed'.",
      summary: 'What the ticket is about, in the agent\'s words.',
    },
  },
  appointments: {
    description: 'Technician visits, one row per appointment.',
    columns: {
      appointment_id: "Appointment identifier, 'AP-', the customer's seven digits, '-' and a sequence.",
      customer_id: 'The customer (accounts.customer_id).',
      scheduled_for: 'Date of the visit.',
      slot: `Time slot: ${values(APPOINTMENT_SLOTS)}.`,
      status: "'booked' (to come), 'completed' or 'cancelled'.",
      reason: 'What the technician is to do.',
    },
  },
  handoffs: {
    description: 'Calls transferred to a human team by a service agent, one row per transfer (empty in a fresh build).',
    columns: {
      handoff_id: "Transfer identifier, 'HO-', the customer's seven digits, '-' and a sequence.",
      customer_id: 'The customer (accounts.customer_id).',
      department: `The team the call went to: ${values(DEPARTMENTS)}.`,
      reason: 'Why the call was transferred, in the agent\'s words.',
      created_at: 'When the transfer was made.',
    },
  },
};
