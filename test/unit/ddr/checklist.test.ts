import { describe, expect, it } from 'vitest';
import { checklistAccuracy, firstCountingK, gradeChecklist, splitClauses } from '../../../src/graders/checklist.ts';
import { ChecklistItemSchema, type ChecklistItem } from '../../../src/schemas/checklist.ts';

const item = (fields: Partial<ChecklistItem> & Pick<ChecklistItem, 'id' | 'answer' | 'answer_type'>): ChecklistItem =>
  ChecklistItemSchema.parse({ question: fields.id, verification_sql: 'SELECT 1', ...fields });

const stay = item({ id: 'stay', question: 'What is the average length of stay of patient P-0042, in days?', answer: 4.2, answer_type: 'number', tolerance: 0.1, unit: 'days' });
const revenue = item({ id: 'revenue', question: "What was company C-001's revenue in fiscal 2024, in USD millions?", answer: 1234.5, answer_type: 'number', tolerance: 0.5, unit: 'USD million' });
const margin = item({ id: 'margin', question: "What was company C-001's net margin (net income / revenue) in 2024, in percent?", answer: 12.3, answer_type: 'number', tolerance: 0.2, unit: '%' });
const admissions = item({ id: 'admissions', question: 'How many hospital admissions does patient P-0042 have?', answer: 3, answer_type: 'number', tolerance: 0, unit: 'admissions' });
const sector = item({ id: 'sector', question: 'In which sector does company C-001 operate?', answer: 'Energy', answer_type: 'category', choices: ['Energy', 'Technology', 'Healthcare'] });
const drugs = item({ id: 'drugs', question: 'Which drugs has patient P-0042 been prescribed?', answer: ['metformin', 'insulin glargine'], answer_type: 'set', choices: ['metformin', 'insulin glargine', 'insulin', 'semaglutide'] });
const hba1c = item({ id: 'hba1c', question: "Did patient P-0042's HbA1c improve, worsen or stay the same from the first to the last draw?", answer: 'improved', answer_type: 'direction', higher_is_better: false });

const verdictOf = (checklistItem: ChecklistItem, messages: string[]) => gradeChecklist([checklistItem], messages)[0]!;

describe('gradeChecklist (deterministic)', () => {
  it('accepts a number within tolerance and rejects one outside it, in the sentence that addresses the fact', () => {
    expect(verdictOf(stay, ['The average length of stay is 4.23 days.']).verdict).toBe('CORRECT_INFO');
    expect(verdictOf(stay, ['The average length of stay is 5.1 days.']).verdict).toBe('INCORRECT_INFO');
    // A number in another sentence is not about this fact.
    expect(verdictOf(stay, ['The length of stay varies. There were 5.1 visits.']).verdict).toBe('INSUFFICIENT_INFO');
  });

  it('reads thousands separators, currency, multipliers and percent signs in the item\'s unit', () => {
    expect(verdictOf(revenue, ['Revenue in 2024 was $1,234.5M.']).verdict).toBe('CORRECT_INFO');
    expect(verdictOf(revenue, ['2024 revenue reached 1.2345 billion dollars.']).verdict).toBe('CORRECT_INFO');
    expect(verdictOf(revenue, ['Revenue in 2024 was $1,534.5M.']).verdict).toBe('INCORRECT_INFO');
    expect(verdictOf(margin, ['Net margin was 12.3% in 2024.']).verdict).toBe('CORRECT_INFO');
    expect(verdictOf(margin, ['Net margin was 0.123 in 2024.']).verdict).toBe('CORRECT_INFO');
    // A percentage is not a count: "3%" says nothing about 3 admissions.
    expect(verdictOf(admissions, ['Admissions rose 3% overall.']).verdict).toBe('INSUFFICIENT_INFO');
  });

  it('does not read entity identifiers, dates or years as values', () => {
    expect(verdictOf(admissions, ['Patient P-0042 was admitted 3 times between 2020-01-05 and 2023.']).verdict).toBe('CORRECT_INFO');
    expect(verdictOf(admissions, ['Patient P-0003 was admitted in 2021.']).verdict).toBe('INSUFFICIENT_INFO');
  });

  it('judges categories and sets by the names they give', () => {
    expect(verdictOf(sector, ['It operates in the Energy sector.']).verdict).toBe('CORRECT_INFO');
    expect(verdictOf(sector, ['It is a Technology sector company.']).verdict).toBe('INCORRECT_INFO');
    expect(verdictOf(drugs, ['Medications: metformin and insulin glargine.']).verdict).toBe('CORRECT_INFO');
    // "insulin glargine" does not also name "insulin".
    expect(verdictOf(drugs, ['Medications: insulin glargine, metformin, semaglutide.']).verdict).toBe('INCORRECT_INFO');
    expect(verdictOf(drugs, ['Medications include metformin.']).verdict).toBe('INSUFFICIENT_INFO');
  });

  it('maps increases and decreases to improved or worsened by the metric\'s polarity', () => {
    expect(verdictOf(hba1c, ['HbA1c improved over the year.']).verdict).toBe('CORRECT_INFO');
    expect(verdictOf(hba1c, ['HbA1c decreased from 9.1 to 7.4.']).verdict).toBe('CORRECT_INFO');
    expect(verdictOf(hba1c, ['HbA1c rose from 7.4 to 9.1.']).verdict).toBe('INCORRECT_INFO');
    expect(verdictOf(hba1c, ['HbA1c stayed stable.']).verdict).toBe('INCORRECT_INFO');
  });

  it('lets the last message that addresses a fact decide, and reports supporting and contradicting indices', () => {
    const verdict = verdictOf(stay, ['Nothing yet.', 'Length of stay: 4.2 days.', 'Correction: the length of stay is 6 days.']);
    expect(verdict).toMatchObject({ verdict: 'INCORRECT_INFO', supporting: [1], contradicting: [2] });
    const revised = verdictOf(stay, ['Length of stay: 6 days.', 'Actually the length of stay is 4.2 days.']);
    expect(revised).toMatchObject({ verdict: 'CORRECT_INFO', supporting: [1], contradicting: [0] });
  });

  it('computes accuracy and the first k at which each correct item counts', () => {
    const verdicts = gradeChecklist([stay, sector, margin], ['x', 'Length of stay: 4.2 days.', 'Energy sector.', 'Length of stay 4.2 days again.']);
    expect(verdicts.map((verdict) => verdict.verdict)).toEqual(['CORRECT_INFO', 'CORRECT_INFO', 'INSUFFICIENT_INFO']);
    expect(checklistAccuracy(verdicts)).toBeCloseTo(2 / 3);
    expect(firstCountingK(verdicts)).toEqual([2, 3, null]);
  });

  it('a parenthesised aside is not the subject: "(by departed)" does not make a sentence about the trips to a place one about those leaving it', () => {
    // Two peak hours as ddr scaffold asks them, one per role of the reference (origin, destination). "departed" is a
    // paraphrase of "start" (origin); in an aside it only says which time column was read, so each sentence's
    // subject (the trips with origin id / dest id PL001) decides whose hour it states: both are correct.
    const byOrigin = item({ id: 'origin-peak', question: 'In which hour of the day (0–23, by departed) do most of the trips with origin id PL001 fall?', answer: 0, answer_type: 'number', tolerance: 0, unit: 'hour of day' });
    const byDest = item({ id: 'dest-peak', question: 'In which hour of the day (0–23, by departed) do most of the trips with dest id PL001 fall?', answer: 17, answer_type: 'number', tolerance: 0, unit: 'hour of day' });
    const verdicts = gradeChecklist([byOrigin, byDest], [
      'Most of the trips with origin id PL001 fall in the hour from 0:00 (by departed).',
      'Most of the trips with dest id PL001 fall in the hour from 17:00 (by departed).',
    ], { entityId: 'PL001' });
    expect(verdicts.map((verdict) => [verdict.itemId, verdict.verdict])).toEqual([['origin-peak', 'CORRECT_INFO'], ['dest-peak', 'CORRECT_INFO']]);
    // The hour said of the trips to PL001 is not the origin's: stated alone, it leaves the origin item unanswered.
    expect(gradeChecklist([byOrigin, byDest], ['Most of the trips with dest id PL001 fall in the hour from 0:00 (by departed).'], { entityId: 'PL001' }).map((verdict) => verdict.verdict)).toEqual(['INSUFFICIENT_INFO', 'INCORRECT_INFO']);
  });

  it('two facts in the same words in another order: the role the sentence binds to the entity ("with origin id PL003") decides', () => {
    // Where the trips from PL003 go, and where the trips to PL003 come from: the same words, so only the role by which
    // the rows reach the entity tells them apart. Each sentence states one fact and leaves the other alone.
    const places = ['PL003', 'PL010', 'PL016'];
    const goesTo = item({ id: 'goes-to', question: 'Which dest id is most frequent among the trips with origin id PL003?', answer: 'PL016', answer_type: 'category', choices: places });
    const comesFrom = item({ id: 'comes-from', question: 'Which origin id is most frequent among the trips with dest id PL003?', answer: 'PL010', answer_type: 'category', choices: places });
    // The served database's places, as the grader reads them: this task's own id is never a value.
    const entities = { kind: 'place', own: ['pl003'], others: new Map([['pl010', 'PL010'], ['pl016', 'PL016']]) };
    const grade = (messages: string[]) => gradeChecklist([goesTo, comesFrom], messages, { entityId: 'PL003', entities }).map((verdict) => verdict.verdict);
    expect(grade(['The most frequent dest id among the trips with origin id PL003 is PL016.', 'The most frequent origin id among the trips with dest id PL003 is PL010.'])).toEqual(['CORRECT_INFO', 'CORRECT_INFO']);
    expect(grade(['The most frequent dest id among the trips with origin id PL003 is PL016.'])).toEqual(['CORRECT_INFO', 'INSUFFICIENT_INFO']);
    // The two values swapped: both wrong.
    expect(grade(['The most frequent dest id among the trips with origin id PL003 is PL010.', 'The most frequent origin id among the trips with dest id PL003 is PL016.'])).toEqual(['INCORRECT_INFO', 'INCORRECT_INFO']);
  });

  it('splits messages into sentences and list lines but keeps decimals whole', () => {
    expect(splitClauses('Stay is 4.2 days. Revenue grew.\n- Sector: Energy')).toEqual(['stay is 4.2 days.', 'revenue grew.', '- sector: energy']);
  });

  // The rules (README "How a DDR answer is graded"), each stated by hand.
  const handleTime = item({ id: 'aht', question: "What is the average handle time (duration_s) of agent A-0042's calls, in seconds?", answer: 305.2, answer_type: 'number', tolerance: 1, unit: 's' });
  const calls = item({ id: 'calls', question: 'How many contacts did agent A-0042 handle?', answer: 412, answer_type: 'number', tolerance: 0, unit: 'calls' });
  const rate = item({ id: 'fcr', question: "What share of agent A-0042's calls were resolved on first contact, in percent?", answer: 71.4, answer_type: 'number', tolerance: 0.5, unit: '%' });
  const driver = item({ id: 'driver', question: "Which call driver is most frequent among agent A-0042's calls?", answer: 'billing_dispute', answer_type: 'category', choices: ['billing_dispute', 'password_reset', 'outage', 'refund_request'] });
  const trend = item({ id: 'trend', question: "Did agent A-0042's average handle time increase, decrease or stay stable from Q1 to Q2?", answer: 'decreased', answer_type: 'direction', kind: 'trend' });
  const change = item({ id: 'change', question: "By how many points did agent A-0042's mean QA score change after April?", answer: -1.2, answer_type: 'number', tolerance: 0.05, unit: 'points', kind: 'trend' });
  const rank = item({ id: 'rank', question: 'Among all 50 agents, where does agent A-0042 rank by average handle time (1 = shortest)?', answer: 3, answer_type: 'number', tolerance: 0, unit: 'rank', peers: 50, rank_by: 'lowest', kind: 'rank' });
  const agent = [handleTime, calls, rate, driver, trend, change, rank];
  const grade = (messages: string[]) => Object.fromEntries(gradeChecklist(agent, messages, { entityId: 'A-0042' }).map((verdict) => [verdict.itemId, verdict.verdict]));

  it('recognises number, unit and subject in any order and in common paraphrases, several facts to a sentence', () => {
    expect(grade(['A-0042 took 412 contacts; their AHT comes to 305 s and 71.4% of calls were fixed on the first contact.'])).toMatchObject({ calls: 'CORRECT_INFO', aht: 'CORRECT_INFO', fcr: 'CORRECT_INFO' });
    expect(grade(['Calls last 305.2 seconds on average for this agent.'])).toMatchObject({ aht: 'CORRECT_INFO', calls: 'INSUFFICIENT_INFO' });
    expect(grade(['On handle time they are the 3rd fastest of the 50 agents.'])).toMatchObject({ rank: 'CORRECT_INFO' });
    // "48th slowest" of 50 is the 3rd fastest.
    expect(grade(['By handle time the agent is the 48th slowest of 50.'])).toMatchObject({ rank: 'CORRECT_INFO' });
  });

  it('does not count several candidate values for one item in a sentence (a list, a range) as support', () => {
    expect(grade(['Average handle time could be anywhere in 250 s, 280 s, 305 s, 330 s, 360 s.'])).toMatchObject({ aht: 'INCORRECT_INFO' });
    expect(grade(['The average handle time is between 290 and 320 seconds.'])).toMatchObject({ aht: 'INCORRECT_INFO' });
    expect(grade(['Top call drivers: billing dispute, password reset, outage, refund request.'])).toMatchObject({ driver: 'INCORRECT_INFO' });
    // Ranked, the first named is the one stated.
    expect(grade(['The most frequent driver is billing dispute, followed by password reset.'])).toMatchObject({ driver: 'CORRECT_INFO' });
  });

  it('counts hedged and self-contradicting statements as contradicting', () => {
    expect(grade(['Maybe the average handle time is 305 s.'])).toMatchObject({ aht: 'INCORRECT_INFO' });
    expect(grade(['I think the most frequent driver is probably billing dispute.'])).toMatchObject({ driver: 'INCORRECT_INFO' });
    expect(grade(['AHT is 305 s. AHT is 350 s.'])).toMatchObject({ aht: 'INCORRECT_INFO' });
  });

  it('has a movement vocabulary (increased/decreased/stable) beside improved/worsened, and reads a change\'s sign from its verb', () => {
    expect(grade(['Handle time fell between Q1 and Q2.'])).toMatchObject({ trend: 'CORRECT_INFO' });
    expect(grade(['Handle time increased between Q1 and Q2.'])).toMatchObject({ trend: 'INCORRECT_INFO' });
    expect(grade(['Handle time held steady between Q1 and Q2.'])).toMatchObject({ trend: 'INCORRECT_INFO' });
    expect(grade(['The mean QA score dropped by 1.2 points after April.'])).toMatchObject({ change: 'CORRECT_INFO' });
    expect(grade(['The mean QA score rose by 1.2 points after April.'])).toMatchObject({ change: 'INCORRECT_INFO' });
    expect(grade(['The mean QA score changed by -1.2 points after April.'])).toMatchObject({ change: 'CORRECT_INFO' });
  });
});
