// The SQL that writes what is said in each transcript turn, from the lexicons of transcript-lexicon.ts. The slot
// a turn belongs to (greeting, issue, escalation request …) is decided by the call's facts before any wording is
// drawn, so the labels (key_moments, call_driver, resolved, sentiment) never depend on the words.
import { EFFECTS } from './effects.ts';
import * as L from './transcript-lexicon.ts';

/** How noisy the text is: speech-recognition errors per word, disfluencies per turn. */
export interface TranscriptNoise {
  /** Share of words misrecognised (voice, callback) or mistyped (chat). Default 0.03. */
  asrErrorRate?: number;
  /** Share of spoken turns with a filler or a false start. Default 0.25. */
  disfluencyRate?: number;
}

export const DEFAULT_ASR_ERROR_RATE = 0.03;
export const DEFAULT_DISFLUENCY_RATE = 0.25;

const quote = (value: string): string => `'${value.replaceAll("'", "''")}'`;
const list = (values: readonly string[]): string => `[${values.map(quote).join(', ')}]`;

/** Random stream numbers of the text draws (the call-level macros use streams below 100). */
let streamCounter = 100;
const stream = () => streamCounter++;

/** A per-turn pick from a list (`n` call, `slot` turn kind, a fresh stream). */
const turnPick = (values: readonly string[], k = stream()) => `${list(values)}[1 + floor(u(n * 16 + slot, ${k}) * ${values.length})::INTEGER]`;
/** A per-call pick (the same for every turn of the call). */
const callPick = (values: readonly string[], key: string, k = stream()) => `${list(values)}[1 + floor(u(${key}, ${k}) * ${values.length})::INTEGER]`;
/** A per-driver pick. */
const byDriver = (lexicon: Record<string, readonly string[]>) =>
  `CASE driver ${Object.entries(lexicon).map(([driver, values]) => `WHEN ${quote(driver)} THEN ${turnPick(values)}`).join(' ')} END`;
const capitalised = (expression: string) => `(upper(left(${expression}, 1)) || substr(${expression}, 2))`;

/** The template of a turn (placeholders unfilled), by slot. */
function templateSql(): string {
  const hedge = turnPick(L.HEDGES);
  return `CASE slot
    WHEN 0 THEN CASE channel WHEN 'chat' THEN ${turnPick(L.CHAT_GREETINGS)} ELSE ${turnPick(L.GREETINGS)} END
    WHEN 1 THEN CASE WHEN sentiment_start <= -0.35 THEN ${turnPick(L.OPENERS.negative)} WHEN sentiment_start >= 0.15 THEN ${turnPick(L.OPENERS.positive)}
                     ELSE ${turnPick(L.OPENERS.neutral)} END || ' ' || ${capitalised(`(${hedge} || ${byDriver(L.ISSUES)})`)} || '.'
    WHEN 2 THEN ${turnPick(L.VERIFICATIONS)}
    WHEN 3 THEN ${turnPick(L.VERIFY_ANSWERS)} || ' ' || ${capitalised(`(${turnPick(L.HEDGES)} || ${byDriver(L.DETAILS)})`)} || '.'
    WHEN 4 THEN ${turnPick(L.CANCELLATION_THREATS)}
    WHEN 5 THEN ${turnPick(L.HOLDS)}
    WHEN 6 THEN CASE WHEN hold_s > ${EFFECTS.longHoldSeconds} THEN ${turnPick(L.LONG_HOLD_RETURNS)} || ' ' WHEN has_hold THEN ${turnPick(L.HOLD_RETURNS)} || ' ' ELSE '' END || ${turnPick(L.FINDINGS)}
    WHEN 7 THEN ${turnPick(L.REFUND_OFFERS)}
    WHEN 8 THEN CASE WHEN transfers >= 2 THEN ${turnPick(L.REPEAT_TRANSFER_OPENERS)} || ' ' ELSE '' END || ${turnPick(L.TRANSFERS)}
    WHEN 9 THEN ${turnPick(L.ESCALATION_REQUESTS)}
    WHEN 10 THEN ${turnPick(L.ESCALATION_ANSWERS)}
    WHEN 11 THEN CASE WHEN resolved THEN ${turnPick(L.RESOLVED)} ELSE ${turnPick(L.UNRESOLVED)} END
    WHEN 12 THEN CASE WHEN sentiment_end >= 0.2 THEN ${turnPick(L.CLOSINGS.positive)} WHEN sentiment_end <= -0.3 THEN ${turnPick(L.CLOSINGS.negative)}
                      ELSE ${turnPick(L.CLOSINGS.neutral)} END
    ELSE ${turnPick(L.GOODBYES)} END`;
}

/** Fills the call's data and the per-turn synonym draws into `template`. */
function fillSql(template: string): string {
  const customer = 'customer_number';
  const digits = (count: number, key: string) => `lpad(floor(u(${key}, ${stream()}) * ${10 ** count})::BIGINT::VARCHAR, ${count}, '0')`;
  const data: Array<[string, string]> = [
    ['company', callPick(L.COMPANY_NAMES, 'n')],
    ['agent', 'agent_first_name'],
    ['customer', callPick(L.CUSTOMER_FIRST_NAMES, customer)],
    ['surname', callPick(L.CUSTOMER_SURNAMES, customer)],
    ['number', `(10 + floor(u(${customer}, ${stream()}) * 4990)::INTEGER)::VARCHAR`],
    ['street', `${callPick(L.STREETS, customer)} || ' ' || ${callPick(L.STREET_KINDS, customer)}`],
    ['city', callPick(L.CITIES, customer)],
    ['zip', digits(5, customer)],
    ['last_four', digits(4, customer)],
    ['years', `(1 + floor(u(${customer}, ${stream()}) * 14)::INTEGER)::VARCHAR`],
    ['amount', `(5 + floor(u(n, ${stream()}) * 180)::INTEGER)::VARCHAR`],
    ['refund', `(10 + (n % 9) * 5)::VARCHAR`],
    ['date', `strftime(started_at::DATE - (1 + floor(u(n, ${stream()}) * 25))::INTEGER, '%B %-d')`],
    ['day', `dayname(started_at::DATE - (1 + floor(u(n, ${stream()}) * 4))::INTEGER)`],
    ['time', `(1 + floor(u(n, ${stream()}) * 12)::INTEGER)::VARCHAR || CASE WHEN u(n, ${stream()}) < 0.5 THEN ' am' ELSE ' pm' END`],
    ['part_of_day', `CASE WHEN hour(started_at) < 12 THEN 'morning' WHEN hour(started_at) < 18 THEN 'afternoon' ELSE 'evening' END`],
    ['product', callPick(L.DEVICES, 'n')],
    ['plan', callPick(L.PLANS, 'n')],
    ['addon', callPick(L.ADD_ONS, 'n')],
    ['competitor', callPick(L.COMPETITORS, 'n')],
    ['carrier', callPick(L.CARRIERS, 'n')],
    ['relative', callPick(L.RELATIVES, 'n')],
    ['order_no', digits(7, 'n')],
    ['gb', `(2 + floor(u(n, ${stream()}) * 38)::INTEGER)::VARCHAR`],
    ['days', `(2 + floor(u(n, ${stream()}) * 4)::INTEGER)::VARCHAR`],
    ['department_name', turnPick(L.DEPARTMENT_NAMES)],
  ];
  const synonyms = Object.entries(L.SYNONYMS).map(([key, values]): [string, string] => [key, turnPick(values)]);
  return [...data, ...synonyms].reduce((text, [key, value]) => `replace(${text}, '{${key}}', ${value})`, template);
}

/**
 * Speech noise on the filled text (`filled` column). Spoken turns (voice, callback) get a filler or a repeated
 * first word with probability `disfluencyRate` (column `spoken`), and each word is misheard with probability
 * `asrErrorRate` (a confusion from ASR_CONFUSIONS, else dropped); typed turns (chat) get typos instead (a letter
 * dropped, swapped or doubled).
 */
function spokenSql(noise: Required<TranscriptNoise>): string {
  const fillerStream = stream();
  return `CASE
      WHEN channel = 'chat' THEN filled
      WHEN u(n * 16 + slot, ${fillerStream}) < ${noise.disfluencyRate * 0.75}
        THEN regexp_replace(filled, '^(\\S+) ', '\\1 ' || ${turnPick(L.FILLERS)} || ' ')
      WHEN u(n * 16 + slot, ${fillerStream}) < ${noise.disfluencyRate} THEN regexp_replace(filled, '^(\\S+) ', '\\1 \\1 ')
      ELSE filled END`;
}

function noisySql(noise: Required<TranscriptNoise>): string {
  if (noise.asrErrorRate <= 0) return 'spoken';
  const confusions = `MAP {${Object.entries(L.ASR_CONFUSIONS).map(([from, to]) => `${quote(from)}: ${quote(to)}`).join(', ')}}`;
  const word = (k: number) => `u((n * 16 + slot) * 128 + i, ${k})`;
  const [misheard, how, where] = [stream(), stream(), stream()];
  const heard = `list_transform(string_split(spoken, ' '), (w, i) -> CASE
      WHEN ${word(misheard)} >= ${noise.asrErrorRate} THEN w
      ELSE coalesce(${confusions}[regexp_replace(lower(w), '[^a-z]', '', 'g')], CASE WHEN ${word(how)} < 0.5 THEN '' ELSE w END) END)`;
  const position = `(1 + floor(${word(where)} * (length(w) - 2))::INTEGER)`;
  const typed = `list_transform(string_split(spoken, ' '), (w, i) -> CASE
      WHEN ${word(misheard)} >= ${noise.asrErrorRate} OR length(w) < 4 THEN w
      WHEN ${word(how)} < 0.34 THEN left(w, ${position}) || substr(w, ${position} + 2)
      WHEN ${word(how)} < 0.67 THEN left(w, ${position}) || substr(w, ${position} + 2, 1) || substr(w, ${position} + 1, 1) || substr(w, ${position} + 3)
      ELSE left(w, ${position} + 1) || substr(w, ${position} + 1) END)`;
  return `trim(regexp_replace(array_to_string(CASE channel WHEN 'chat' THEN ${typed} ELSE ${heard} END, ' '), ' {2,}', ' ', 'g'))`;
}

/**
 * The CTEs that add a turn's `text` to a relation `base` with columns n, slot, channel, driver, agent_first_name,
 * customer_number, started_at, sentiment_start, sentiment_end, resolved, has_hold, hold_s and transfers: `filled` (lexicon phrasings
 * with the call's data), `spoken` (disfluencies), then `noisy` whose `text` column is the turn's text.
 */
export function transcriptTextCtes(noise: TranscriptNoise = {}): string {
  streamCounter = 100;
  const settings = { asrErrorRate: noise.asrErrorRate ?? DEFAULT_ASR_ERROR_RATE, disfluencyRate: noise.disfluencyRate ?? DEFAULT_DISFLUENCY_RATE };
  for (const [name, value] of Object.entries(settings)) {
    if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be between 0 and 1 (got ${value})`);
  }
  return `filled_turns AS MATERIALIZED (SELECT *, ${capitalised(`(${fillSql(templateSql())})`)} AS filled FROM base),
    spoken_turns AS MATERIALIZED (SELECT *, ${spokenSql(settings)} AS spoken FROM filled_turns),
    noisy AS (SELECT *, ${noisySql(settings)} AS text FROM spoken_turns)`;
}
