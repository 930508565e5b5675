// Identifiers in a step's words (src/planning/step-frame.ts, sql-catalog.ts): a column whose comment documents its
// format by example ("'A-' and four digits (e.g. 'A-0042')") takes any word of that shape as its value. The warehouse's
// agent ids were never enumerated, so "agent A-0042" in a RAG step stayed words of the query, and at 100,000 calls the
// ten passages returned came from other agents (the plan bench's facts_reached 0.9899: plan-ss-014, -032, -050).
import { describe, expect, it } from 'vitest';
import { generatePlanSuite } from '../../../episodes/plan-generator/index.ts';
import { planCatalog } from '../../../src/graders/plan-catalog.ts';
import { ragRequest } from '../../../src/planning/rag-request.ts';
import { identifierExample } from '../../../src/planning/sql-catalog.ts';
import { frameOfStep } from '../../../src/planning/translate-step.ts';

const catalog = (await planCatalog(generatePlanSuite({ perStratum: 1 })[0]!))!;

describe('identifiers by their documented format', () => {
  it('reads the example of a format from a column comment, and nothing else', () => {
    expect(identifierExample("Agent identifier, 'A-' and four digits (e.g. 'A-0042').")).toBe('A-0042');
    expect(identifierExample("Call identifier, 'C-' and seven digits (e.g. 'C-0000001').")).toBe('C-0000001');
    // An enumeration, an example without digits, a bare number: no identifier format.
    expect(identifierExample("Queue: 'billing', 'sales', 'general'.")).toBeUndefined();
    expect(identifierExample("A label (e.g. 'premium').")).toBeUndefined();
    expect(identifierExample("A count (e.g. '42').")).toBeUndefined();
  });

  it('takes an agent id in a step\'s words as the agent filter, in the example\'s case', () => {
    const frame = frameOfStep('List the ids of escalated calls handled by agent A-0042', catalog);
    expect(frame.ok && frame.frame.filters).toEqual(expect.arrayContaining([{ column: 'agent_id', op: '=', value: { kind: 'literal', value: 'A-0042' } }, { column: 'escalated', op: 'true' }]));
    const lower = frameOfStep('Compute the escalation rate of calls handled by agent a-0007', catalog);
    expect(lower.ok && lower.frame.filters).toEqual([{ column: 'agent_id', op: '=', value: { kind: 'literal', value: 'A-0007' } }]);
    const call = frameOfStep('Count the key moments of call C-0000042, by kind', catalog);
    expect(call.ok && call.frame.filters).toEqual([{ column: 'call_id', op: '=', value: { kind: 'literal', value: 'C-0000042' } }]);
  });

  it('the RAG step of plan-ss-014 filters its search by the agent it names', () => {
    const request = ragRequest('Retrieve transcript passages from escalated calls of agent A-0042 where the call is escalated', catalog, new Map(), 10);
    expect(request.ok && request.args.filters).toEqual({ agent_id: 'A-0042', escalated: true });
  });

  it('a word of another shape is no identifier: one digit too many, or glued to other letters, stays untranslatable', () => {
    for (const prompt of ['List the ids of calls handled by agent A-00420', 'List the ids of calls handled by agent XA-0042', 'List the ids of calls handled by agent A-0042x']) {
      const frame = frameOfStep(prompt, catalog);
      expect(frame.ok, prompt).toBe(false);
      expect(!frame.ok && frame.reason, prompt).toMatch(/^cannot translate: no column, value or measure of the database means "/);
    }
  });
});
