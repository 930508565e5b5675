import { describe, expect, it } from 'vitest';
import { createUserModel } from '../../../src/models/create-user-model.ts';
import { createRuleBasedCustomer, HANG_UP_LINES, NOTHING_TO_SAY, ruleBasedReply } from '../../../src/models/rule-based-customer.ts';
import { UserModelSpecSchema } from '../../../src/schemas/model-spec.ts';
import { containsPhrase, CustomerSchema } from '../../../src/schemas/service-task.ts';
import type { ChatMessage } from '../../../src/schemas/message.ts';
import { cctuTask } from '../engine/fixtures.ts';

// The rules are ruleBasedReply's documentation (src/models/rule-based-customer.ts) and CustomerSchema's
// (src/schemas/service-task.ts); every expectation below is derived from them by hand.
const customer = CustomerSchema.parse({
  customerId: 'CU-0000042',
  persona: 'Ana, patient',
  goal: 'a refund of the duplicate charge',
  opening: 'I was charged twice.',
  facts: [
    { name: 'full name', value: 'Ana Ruiz', askedBy: ['full name', 'your name'] },
    { name: 'PIN', value: '1234', askedBy: ['pin'] },
    { name: 'charge', value: 'INV-0000042-03', askedBy: ['invoice'], volunteered: true },
  ],
  goalMet: [['refund', 'credit'], ['19.99']],
  refused: ['cannot refund'],
  maxTurns: 3,
});

describe('the rule-based customer (ruleBasedReply)', () => {
  it('says only the facts whose askedBy phrase the message contains, lower-casing the message, in the order of facts', () => {
    // "PIN" matches "pin", "Full Name" matches "full name"; the facts come in the order of `facts`, not of the question.
    expect(ruleBasedReply(customer, 'Your PIN and your Full Name, please.', 2)).toEqual({ content: 'full name: Ana Ruiz. PIN: 1234.', hangUp: false });
  });

  it('matches a phrase only where it starts a word and no digit follows (containsPhrase)', () => {
    // "pin" inside "shipping" is not asked; "19.99" inside "119.99" or "19.995" does not meet the goal; "refund" in
    // "refunded" does (letters may follow).
    expect(ruleBasedReply(customer, 'Let me look at the shipping details.', 2)).toEqual({ content: NOTHING_TO_SAY.statement, hangUp: false });
    expect(ruleBasedReply(customer, 'I refunded 119.99 and 19.995.', 2).hangUp).toBe(false);
    expect(ruleBasedReply(customer, 'I refunded $19.99.', 2)).toEqual({ content: HANG_UP_LINES.goalMet, hangUp: true });
    expect(containsPhrase('PIN-code?', 'pin')).toBe(true);
    expect(containsPhrase('a pinned note', 'pin')).toBe(true);
    expect(containsPhrase('spin', 'pin')).toBe(false);
    expect(containsPhrase('costs 9.00.', '9.00')).toBe(true);
    expect(containsPhrase('costs 19.00', '9.00')).toBe(false);
    expect(containsPhrase('a (x) b', '(x)')).toBe(true);
  });

  it('adds the volunteered facts to its first reply only', () => {
    expect(ruleBasedReply(customer, 'What is your PIN?', 1)).toEqual({ content: 'PIN: 1234. charge: INV-0000042-03.', hangUp: false });
    expect(ruleBasedReply(customer, 'What is your PIN?', 2)).toEqual({ content: 'PIN: 1234.', hangUp: false });
  });

  it('knows nothing beyond its facts: a question gets "I don\'t know.", anything else "Okay."', () => {
    expect(ruleBasedReply(customer, 'What is your date of birth?', 2)).toEqual({ content: NOTHING_TO_SAY.question, hangUp: false });
    expect(ruleBasedReply(customer, 'One moment while I look.', 2)).toEqual({ content: NOTHING_TO_SAY.statement, hangUp: false });
  });

  it('hangs up when one phrase of every goalMet group is said, and not when a group is missing', () => {
    expect(ruleBasedReply(customer, 'I issued a CREDIT of $19.99.', 2)).toEqual({ content: HANG_UP_LINES.goalMet, hangUp: true });
    // only the first group: the amount is missing
    expect(ruleBasedReply(customer, 'I issued a refund.', 2).hangUp).toBe(false);
  });

  it('hangs up on a refusal phrase', () => {
    expect(ruleBasedReply(customer, 'Sorry, I cannot refund that invoice.', 2)).toEqual({ content: HANG_UP_LINES.refused, hangUp: true });
  });

  it('the goal rule is tried before the refusal rule', () => {
    expect(ruleBasedReply(customer, 'I cannot refund in cash, but a credit of 19.99 is on your account.', 2).content).toBe(HANG_UP_LINES.goalMet);
  });

  it('gives maxTurns replies and hangs up at the next one', () => {
    expect(ruleBasedReply(customer, 'Anything else?', 3).hangUp).toBe(false);
    expect(ruleBasedReply(customer, 'Anything else?', 4)).toEqual({ content: HANG_UP_LINES.maxTurns, hangUp: true });
  });

  it('an empty goalMet is never met (it does not hang up on the first message)', () => {
    const open = { ...customer, goalMet: [] };
    expect(ruleBasedReply(open, 'Hello.', 1).hangUp).toBe(false);
  });
});

describe('the rule-based customer as a Model', () => {
  // Its view of the call: persona, connection notice, its opening (assistant), the agent's replies (user).
  const view = (...agent: string[]): ChatMessage[] => {
    const messages: ChatMessage[] = [{ role: 'system', content: 'persona' }, { role: 'user', content: 'connected' }, { role: 'assistant', content: customer.opening }];
    agent.forEach((text, index) => {
      if (index > 0) messages.push({ role: 'assistant', content: 'earlier reply' });
      messages.push({ role: 'user', content: text });
    });
    return messages;
  };

  it('answers the last agent message as its reply number (assistant messages so far), hanging up with an end_call call', async () => {
    const model = createRuleBasedCustomer(customer);
    const first = await model.respond({ messages: view('your pin?'), tools: [] });
    expect(first.message).toEqual({ role: 'assistant', content: 'PIN: 1234. charge: INV-0000042-03.' });
    const done = await model.respond({ messages: view('your pin?', 'A credit of 19.99 is issued.'), tools: [] });
    expect(done.message.content).toBe(HANG_UP_LINES.goalMet);
    expect(done.message.tool_calls?.map((call) => call.function.name)).toEqual(['end_call']);
  });

  it('is made by --user-model rule-based for a task with a customer, and refused for one without', async () => {
    const task = { ...cctuTask(), customer } as unknown as Parameters<typeof createUserModel>[1]['task'];
    expect((await createUserModel('rule-based', { task, tools: [] })).spec).toBe('rule-based');
    await expect(createUserModel('rule-based', { task: cctuTask(), tools: [] })).rejects.toThrow(/has none/);
  });
});

describe('user model specs (UserModelSpecSchema)', () => {
  it('accepts rule-based, human, playback files and providers', () => {
    for (const spec of ['rule-based', 'human', 'scripted:a.json', 'replay:r.jsonl', 'openai:gpt-4o-mini', 'anthropic:claude-x', 'openai-compatible:http://h:1/v1#m']) {
      expect(UserModelSpecSchema.safeParse(spec).success, spec).toBe(true);
    }
  });

  it('refuses the agent-only models and malformed forms, naming the spec', () => {
    for (const spec of ['reference', 'explorer', 'rule-based:x', 'rulebased', 'scripted:', '']) {
      const parsed = UserModelSpecSchema.safeParse(spec);
      expect(parsed.success, spec).toBe(false);
      expect(parsed.error?.issues[0]?.message).toContain(`"${spec}"`);
    }
  });
});
