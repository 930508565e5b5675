import { describe, expect, it } from 'vitest';
import { saysValue } from '../../../src/graders/said-values.ts';

// The rule (src/graders/said-values.ts): a numeric value is said when a number in the text is within half a cent
// (or the given tolerance); any other value when it appears as a whole word, case aside, dates in one form.
describe('saysValue', () => {
  it('accepts the common forms of an amount', () => {
    for (const text of ['a credit of 12.40', 'a credit of £12.40.', 'that is $12.40 back', 'you get 12.4 back', 'credit: 12.40 dollars']) expect(saysValue(text, '12.40'), text).toBe(true);
    expect(saysValue('your balance is $1,234.50', '1234.50')).toBe(true);
  });
  it('refuses other numbers that contain the digits', () => {
    for (const text of ['a credit of 112.40', 'a credit of 12.41', 'a credit of 1240', 'invoice INV-0000012-40']) expect(saysValue(text, '12.40'), text).toBe(false);
  });
  it('matches ids and dates as whole words', () => {
    expect(saysValue('outage out-109 is open', 'OUT-109')).toBe(true);
    expect(saysValue('outage OUT-1090 is open', 'OUT-109')).toBe(false);
    expect(saysValue('booked for July 8, 2026 in the morning', '2026-07-08')).toBe(true);
    expect(saysValue('booked for 2026-07-09', '2026-07-08')).toBe(false);
  });
});
