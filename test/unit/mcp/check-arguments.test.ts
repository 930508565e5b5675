import { describe, expect, it } from 'vitest';
import { ArgumentChecker, compileArgumentCheck } from '../../../src/mcp/for-servers/check-arguments.ts';

// JSON Schema 2020-12 (https://json-schema.org/draft/2020-12/json-schema-validation): `type`, `required`, `enum`,
// `minimum` and nested `properties` / `items` apply as the standard says; each issue names the argument by its path.
const checker = new ArgumentChecker([
  {
    name: 'currency_converter',
    parameters: {
      type: 'object',
      properties: { amount: { type: 'number', minimum: 0 }, from: { type: 'string', enum: ['EUR', 'USD'] }, to: { type: 'string' } },
      required: ['amount', 'to'],
    },
  },
  { name: 'nested', parameters: { type: 'object', properties: { filters: { type: 'array', items: { type: 'object', properties: { column: { type: 'string' } }, required: ['column'] } } } } },
]);

describe('ArgumentChecker', () => {
  it('accepts arguments that fit, and tools it does not know', () => {
    expect(checker.check('currency_converter', { amount: 10, from: 'EUR', to: 'USD' })).toBeNull();
    expect(checker.check('unknown_tool', { anything: true })).toBeNull();
  });

  it('names a wrong type, a missing required argument and a value outside the enum', () => {
    const message = checker.check('currency_converter', { amount: 'ten', from: 'JPY' })!;
    expect(message).toMatch(/^Invalid arguments for currency_converter: /);
    expect(message).toMatch(/"amount": Instance type "string" is invalid\. Expected "number"/);
    expect(message).toMatch(/"to": Instance does not have required property "to"/);
    expect(message).toMatch(/"from": /);
    expect(checker.check('currency_converter', { amount: -1, to: 'USD' })).toMatch(/"amount": -1 is less than 0/);
  });

  it('names a nested argument by its path', () => {
    expect(checker.check('nested', { filters: [{ column: 'a' }, {}] })).toMatch(/"filters\.1\.column": Instance does not have required property "column"/);
  });

  // The argument is named as the schema declares it: cfworker URI-encodes instance pointers, so a key with a space,
  // a non-ASCII letter, a `%` or a `/` must be decoded back (both message forms share one checker).
  it('names an argument whose key needs encoding as declared, in both message forms', () => {
    const schema = { type: 'object', properties: { 'café au/lait %': { type: 'number' } } };
    expect(new ArgumentChecker([{ name: 't', parameters: schema }]).check('t', { 'café au/lait %': 'x' })).toMatch(/"café au\/lait %": Instance type "string"/);
    expect(compileArgumentCheck(schema)({ 'café au/lait %': 'x' })).toEqual(['argument `café au/lait %`: value type "string" is invalid. Expected "number".']);
  });
});
