// The fixed vocabulary of the contact-center accounts (schema `accounts`): the plan catalogue, the service regions and
// the enumerations the service tools accept. The build, the column docs, the service tools and the service task
// generator all quote these constants, so a value renamed here is renamed everywhere.

/** The plan catalogue: tier 1 is the cheapest; a move to a lower tier is a downgrade. Fees in cents per month. */
export const PLANS = [
  { planId: 'P-BASIC', name: 'Basic', tier: 1, monthlyFeeCents: 2900, speedMbps: 100 },
  { planId: 'P-PLUS', name: 'Plus', tier: 2, monthlyFeeCents: 4500, speedMbps: 300 },
  { planId: 'P-PREMIUM', name: 'Premium', tier: 3, monthlyFeeCents: 6500, speedMbps: 500 },
  { planId: 'P-ULTRA', name: 'Ultra', tier: 4, monthlyFeeCents: 8500, speedMbps: 1000 },
  { planId: 'P-MAX', name: 'Max', tier: 5, monthlyFeeCents: 11000, speedMbps: 2000 },
] as const;

/** Service regions; every account is in one, and outages are per region. */
export const REGIONS = ['Northeast', 'Southeast', 'Midwest', 'Mountain', 'Pacific', 'Islands'] as const;

export const ACCOUNT_STATUSES = ['active', 'suspended', 'cancelled'] as const;
export const INVOICE_STATUSES = ['paid', 'unpaid', 'overdue', 'disputed', 'resolved'] as const;
export const TICKET_CATEGORIES = ['billing', 'technical', 'outage', 'account', 'complaint'] as const;
export const APPOINTMENT_SLOTS = ['morning', 'afternoon'] as const;
export const DEPARTMENTS = ['billing', 'technical', 'retention', 'supervisor'] as const;
export const DISPUTE_REASONS = ['roaming charge not recognised', 'charged after plan change', 'late fee applied in error', 'price higher than quoted', 'equipment fee for returned router'] as const;
export const OUTAGE_SERVICES = ['broadband', 'mobile', 'tv'] as const;

/** Invoices cover January–June 2026, one a month, issued on the 28th. */
export const INVOICE_MONTHS = 6;

/**
 * The service episodes' default "now": the calls and invoices end in June 2026, so a customer calls on the first of
 * July. A task may fix another (`now` in its service server options); the tools stamp every write with it.
 */
export const DEFAULT_SERVICE_NOW = '2026-07-01T09:00:00';

/** How far ahead a technician visit may be booked, in days from "now". */
export const BOOKING_WINDOW_DAYS = 30;

/** The form of a task's "now": a local date-time to the second. */
export const SERVICE_NOW_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/u;
