import { describe, expect, it } from 'vitest';
import { gradeChecklist, type GradingContext } from '../../../src/graders/checklist.ts';
import { ChecklistItemSchema, type ChecklistItem } from '../../../src/schemas/checklist.ts';

const item = (fields: Partial<ChecklistItem> & Pick<ChecklistItem, 'id' | 'answer' | 'answer_type' | 'question'>): ChecklistItem =>
  ChecklistItemSchema.parse({ verification_sql: 'SELECT 1', ...fields });

// Each expected verdict follows from the rule in the test's name (README, "How a DDR answer is graded").
const minutes = item({ id: 'ride', question: 'What is the average ride time of dock K-07, in minutes?', answer: 65, answer_type: 'number', tolerance: 0.5, unit: 'min' });
const hours = item({ id: 'wait', question: 'What is the mean waiting time at dock K-07, in hours?', answer: 30.2, answer_type: 'number', tolerance: 0.05, unit: 'hours' });
const count = item({ id: 'rides', question: 'How many rides began at dock K-07?', answer: 288, answer_type: 'number', tolerance: 0, unit: 'rides' });
const volume = item({ id: 'volume', question: 'What is the total volume handled by dock K-07, in litres?', answer: 3_400_000, answer_type: 'number', tolerance: 50_000, unit: 'litres' });
const share = item({ id: 'share', question: 'What fraction of rides at dock K-07 are by subscribers?', answer: 0.62, answer_type: 'number', tolerance: 0.005, unit: 'fraction' });
const peak = item({ id: 'peak', question: 'At what hour of the day do most rides leave dock K-07?', answer: 17, answer_type: 'number', tolerance: 0, unit: 'hour of day' });
const opened = item({ id: 'opened', question: 'On what date did dock K-07 open?', answer: '2024-03-14', answer_type: 'category' });
const grade = (items: ChecklistItem[], message: string, context: GradingContext = { entityId: 'K-07' }) =>
  Object.fromEntries(gradeChecklist(items, [message], context).map((verdict) => [verdict.itemId, verdict.verdict]));

describe('units and formats a person accepts, converted exactly within the item\'s tolerance', () => {
  it('reads a duration in any unit and in mixed forms', () => {
    expect(grade([minutes], 'The average ride time is 1h 5m.')).toEqual({ ride: 'CORRECT_INFO' });
    expect(grade([minutes], 'The average ride time is 1 hour 5 minutes.')).toEqual({ ride: 'CORRECT_INFO' });
    expect(grade([minutes], 'The average ride time is 3900 seconds.')).toEqual({ ride: 'CORRECT_INFO' });
    // 1.09 h = 65.4 min (within 0.5); 1.1 h = 66 min (outside): never a looser match.
    expect(grade([minutes], 'The average ride time is 1.09 hours.')).toEqual({ ride: 'CORRECT_INFO' });
    expect(grade([minutes], 'The average ride time is 1.1 hours.')).toEqual({ ride: 'INCORRECT_INFO' });
    // 30 h 12 min = 30.2 h; 1 day 6 hours 12 minutes likewise.
    expect(grade([hours], 'Mean waiting time: 30 h 12 min.')).toEqual({ wait: 'CORRECT_INFO' });
    expect(grade([hours], 'Mean waiting time: 1 day 6 hours 12 minutes.')).toEqual({ wait: 'CORRECT_INFO' });
    expect(grade([hours], 'Mean waiting time: 1812 minutes.')).toEqual({ wait: 'CORRECT_INFO' });
    expect(grade([hours], 'Mean waiting time: 1830 minutes.')).toEqual({ wait: 'INCORRECT_INFO' });
  });

  it('reads numbers in words, separators and suffixes', () => {
    expect(grade([count], 'Two hundred eighty-eight rides began there.')).toEqual({ rides: 'CORRECT_INFO' });
    expect(grade([count], 'Two hundred and eighty-eight rides began there.')).toEqual({ rides: 'CORRECT_INFO' });
    expect(grade([count], 'Two hundred eighty rides began there.')).toEqual({ rides: 'INCORRECT_INFO' });
    expect(grade([volume], 'The total volume handled is 3.4 M litres.')).toEqual({ volume: 'CORRECT_INFO' });
    expect(grade([volume], 'The total volume handled is 3,400,000 litres.')).toEqual({ volume: 'CORRECT_INFO' });
    expect(grade([volume], 'The total volume handled is 3400k litres.')).toEqual({ volume: 'CORRECT_INFO' });
    expect(grade([volume], 'The total volume handled is 3.5 M litres.')).toEqual({ volume: 'INCORRECT_INFO' });
  });

  it('reads a share as a fraction or a percentage', () => {
    expect(grade([share], 'Subscribers make up 62% of rides.')).toEqual({ share: 'CORRECT_INFO' });
    expect(grade([share], 'Subscribers make up 0.62 of rides.')).toEqual({ share: 'CORRECT_INFO' });
    expect(grade([share], 'Subscribers make up 63% of rides.')).toEqual({ share: 'INCORRECT_INFO' });
  });

  it('reads clock times for an hour of the day', () => {
    for (const form of ['5 p.m.', '5pm', '17:00', '5 PM', "5 o'clock in the afternoon"]) {
      // "5 o'clock" alone is 5, not 17: only the first four name 17.
      expect(grade([peak], `Most rides leave at ${form}, the peak hour.`)).toEqual({ peak: form.includes("o'clock") ? 'INCORRECT_INFO' : 'CORRECT_INFO' });
    }
    expect(grade([peak], 'Most rides leave at 6 p.m., the peak hour.')).toEqual({ peak: 'INCORRECT_INFO' });
    expect(grade([peak], 'Peak departure time is 17h.')).toEqual({ peak: 'CORRECT_INFO' });
  });

  it('reads dates in the common formats, and not an ambiguous day/month', () => {
    for (const form of ['2024-03-14', 'March 14, 2024', '14 March 2024', '14th of March 2024', 'Mar 14 2024', '14/03/2024', '03/14/2024', '2024/03/14']) {
      expect(grade([opened], `Dock K-07 opened on ${form}.`), form).toEqual({ opened: 'CORRECT_INFO' });
    }
    expect(grade([opened], 'Dock K-07 opened on March 15, 2024.')).toEqual({ opened: 'INCORRECT_INFO' });
    const early = item({ id: 'opened', question: 'On what date did dock K-07 open?', answer: '2024-03-04', answer_type: 'category' });
    // 03/04/2024 is 4 March or 3 April: it names neither date exactly, and its digits are no value either.
    expect(grade([early], 'Dock K-07 opened on 03/04/2024.')).toEqual({ opened: 'INSUFFICIENT_INFO' });
    expect(grade([early, peak], 'Dock K-07 opened on 04.03.2024, and most rides leave at the peak hour.')).toEqual({ opened: 'INSUFFICIENT_INFO', peak: 'INSUFFICIENT_INFO' });
    // The weekday of a date is part of the date, not a weekday stated on its own.
    const weekday = item({ id: 'weekday', question: 'On which weekday do most rides leave dock K-07?', answer: 'Saturday', answer_type: 'category', choices: ['Monday', 'Thursday', 'Saturday'] });
    expect(grade([opened, weekday], 'Dock K-07 opened on Thursday, 14 March 2024.')).toEqual({ opened: 'CORRECT_INFO', weekday: 'INSUFFICIENT_INFO' });
  });

  it('does not read a small number word in a figure of speech as a value', () => {
    const trend = item({ id: 'trend', question: 'Did the average ride time of dock K-07 increase, decrease or stay stable from the first half to the second?', answer: 'increased', answer_type: 'direction', kind: 'trend' });
    expect(grade([minutes, trend], 'The average ride time trended upward from the first half to the second, as the two halves show.')).toEqual({ ride: 'INSUFFICIENT_INFO', trend: 'CORRECT_INFO' });
    expect(grade([count], 'Three quarters of the rides began there.')).toEqual({ rides: 'INSUFFICIENT_INFO' });
  });
});

describe('the subject of a sentence decides whose fact it is', () => {
  const destination = item({ id: 'destination', question: 'At which dock do most rides from dock K-07 end?', answer: 'K-02', answer_type: 'category', choices: ['K-01', 'K-02', 'K-03', 'K-07'] });
  const context: GradingContext = {
    entityId: 'K-07',
    entities: { kind: 'dock', own: ['k-07', 'pier head'], others: new Map([['k-01', 'K-01'], ['k-02', 'K-02'], ['k-03', 'K-03'], ['canal basin', 'K-01'], ['mill lane', 'K-02']]) },
    displayNames: new Map([['k-01', ['canal basin']], ['k-02', ['mill lane']], ['k-07', ['pier head']]]),
  };
  const items = [count, destination];

  it('credits this entity\'s facts, by id, by name or by the sentences before', () => {
    expect(grade(items, 'Findings for dock K-07: 288 rides began there. Most rides end at K-02.', context)).toEqual({ rides: 'CORRECT_INFO', destination: 'CORRECT_INFO' });
    expect(grade(items, 'Pier Head saw 288 rides begin. Its rides mostly end at Mill Lane.', context)).toEqual({ rides: 'CORRECT_INFO', destination: 'CORRECT_INFO' });
  });

  it('never credits a value stated about another entity, named by id or by name', () => {
    expect(grade(items, 'Dock K-03 had 288 rides. Most of its rides end at K-02.', context)).toEqual({ rides: 'INSUFFICIENT_INFO', destination: 'INSUFFICIENT_INFO' });
    expect(grade(items, 'At Canal Basin, 288 rides began.', context)).toEqual({ rides: 'INSUFFICIENT_INFO', destination: 'INSUFFICIENT_INFO' });
    expect(grade(items, 'K-07 had 288 rides, more than K-03\'s 250 rides.', context)).toMatchObject({ rides: 'CORRECT_INFO' });
    expect(grade(items, 'K-07 vs K-03: K-07 had 288 rides while K-03 had 250.', context)).toMatchObject({ rides: 'CORRECT_INFO' });
    // A coded value named alone is the answer it names: the wrong one here.
    expect(grade(items, 'Canal Basin is where most of its rides end.', context)).toMatchObject({ destination: 'INCORRECT_INFO' });
  });

  it('never reads the task\'s own id or name as a competing candidate', () => {
    expect(grade(items, 'Dock K-07 (Pier Head): its rides mostly end at K-02.', context)).toMatchObject({ destination: 'CORRECT_INFO' });
  });
});

describe('self-contradiction and stemming', () => {
  it('does not credit a value the sentence corrects, whichever is right', () => {
    expect(grade([hours], 'Mean waiting time is 30.2 hours, or rather 36.2.')).toEqual({ wait: 'INCORRECT_INFO' });
    expect(grade([hours], 'Mean waiting time is 36.2 hours, or rather 30.2.')).toEqual({ wait: 'INCORRECT_INFO' });
    expect(grade([hours], 'Mean waiting time is 30.2 hours, I mean 36.2.')).toEqual({ wait: 'INCORRECT_INFO' });
  });

  it('keeps transfers and transcripts apart (a stemmer, not a five-letter prefix)', () => {
    const transfers = item({ id: 'transfers', question: 'How many transfers did account X-1 make?', answer: 12, answer_type: 'number', tolerance: 0, unit: 'transfers' });
    const transcripts = item({ id: 'transcripts', question: 'How many transcripts mention account X-1?', answer: 40, answer_type: 'number', tolerance: 0, unit: 'transcripts' });
    expect(grade([transfers, transcripts], 'It made 12 transfers. 40 transcripts mention it.', { entityId: 'X-1' })).toEqual({ transfers: 'CORRECT_INFO', transcripts: 'CORRECT_INFO' });
    expect(grade([transfers, transcripts], 'The account appears in 12 transcripts.', { entityId: 'X-1' })).toEqual({ transfers: 'INSUFFICIENT_INFO', transcripts: 'INCORRECT_INFO' });
  });
});
