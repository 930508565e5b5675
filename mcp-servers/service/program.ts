import { SandboxError } from '../../src/sandbox-error.ts';
import type { ServerProgram } from '../transport/server-program.ts';

/**
 * The service server as a program (its bin, `sandbox serve --server service`): one customer's account over read and
 * write tools, each session (each HTTP client) on a private copy of the slice. DuckDB loads only when it opens.
 */
export const serviceProgram: ServerProgram = {
  name: 'service',
  summary: "one contact-center customer's account, read and changed on a private copy per session (get_account, list_invoices, get_outages, list_plans, list_tickets, verify_identity, issue_credit, change_plan, open_ticket, schedule_technician, cancel_account, transfer_to_human)",
  options: {
    customer: { type: 'string', value: 'ID', description: 'the customer whose account is served, e.g. CU-0000042 (required)' },
    db: { type: 'string', value: 'PATH', path: true, description: 'a contact-center DuckDB file (default: the contact-center database, built on first use)' },
    now: { type: 'string', value: 'TIME', description: 'the fixed "now" every write is stamped with, YYYY-MM-DDTHH:MM:SS (default 2026-07-01T09:00:00)' },
  },
  async open(values) {
    const customer = values.customer;
    if (typeof customer !== 'string' || !/^CU-\d{7}$/u.test(customer)) throw new SandboxError('invalid-input', `--customer expects a customer id like CU-0000042 (got ${customer === undefined ? 'nothing' : `"${String(customer)}"`})`);
    const [{ createServiceServer }, { sliceTemplateOf }, { DEFAULT_SERVICE_NOW, SERVICE_NOW_PATTERN }] = await Promise.all([
      import('./create-server.ts'),
      import('../../databases/contact-center/accounts/slice-templates.ts'),
      import('../../databases/contact-center/accounts/catalogue.ts'),
    ]);
    const now = values.now ?? DEFAULT_SERVICE_NOW;
    if (typeof now !== 'string' || !SERVICE_NOW_PATTERN.test(now)) throw new SandboxError('invalid-input', `--now expects YYYY-MM-DDTHH:MM:SS (got "${String(now)}")`);
    const dbPath = typeof values.db === 'string' ? values.db : await (await import('../../databases/index.ts')).ensureDatabase('contact-center');
    const slice = await sliceTemplateOf(dbPath, customer);
    return { make: async () => createServiceServer({ slice, now }), close: async () => undefined };
  },
};
