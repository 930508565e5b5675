import type { SqlDialect } from '../../mcp-servers/sql/backends/dialect.ts';
import type { CatalogColumn, SqlCatalog } from './sql-catalog.ts';

/**
 * A T2S (or RAG) step's meaning, read from its own words against the catalog: what it measures, how it groups,
 * which rows it keeps (filters, thresholds, time windows, values bound to upstream steps), how many it returns.
 * The offline text-to-SQL renders it (`render-sql.ts`); the semantic checks compare two steps' frames by value.
 */
export type FilterValue =
  | { kind: 'literal'; value: string | number }
  | { kind: 'step'; step: number }
  | { kind: 'step-list'; step: number };

export interface Filter {
  /** Column name (its table is chosen when the query is rendered), or `day` for the calendar date of the time column. */
  column: string;
  op: '=' | '<>' | '>' | '>=' | '<' | '<=' | 'in' | 'true' | 'false' | 'between' | 'not-between';
  value?: FilterValue;
  /** Days after the bound date a `between` window spans. */
  span?: number;
}

export interface Measure {
  name: string;
  /** SQL over the measure's table `t` (and its time column `time`, when `usesTime`), in the engine's dialect. */
  expression(dialect: SqlDialect, t: string, time: string): string;
  /** Whether the expression needs the time column. */
  usesTime?: boolean;
  columns: string[];
}

export type FrameShape = 'ids' | 'top' | 'aggregate' | 'compare' | 'count-by' | 'moments' | 'spike' | 'attributes' | 'change';

export interface StepFrame {
  shape: FrameShape;
  measure?: Measure;
  /** Column grouped by, or `weekday` / `day` (derived from the time column). */
  group?: string;
  direction?: 'highest' | 'lowest';
  limit?: number;
  minCount?: number;
  filters: Filter[];
  /** compare: the rows of one side; `otherCondition` those of the other (absent: the rest of the scope). */
  condition?: Filter[];
  otherCondition?: Filter[];
  /** spike: the multiple of the median daily count. */
  factor?: number;
  /** attributes: the columns returned, of the entity's table. */
  attributes?: string[];
  /** change: the date before/after which the measure is compared. */
  pivot?: string;
  /** The upstream steps the words refer to. */
  inputs: number[];
}

export type FrameOutcome = { ok: true; frame: StepFrame } | { ok: false; reason: string };

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const numberOf = (word: string): number => NUMBER_WORDS[word.toLowerCase()] ?? Number(word);

/** Measure words → SQL. Each names the catalog columns it needs; a catalog without them cannot translate it. */
export const MEASURES: Array<{ pattern: RegExp } & Measure> = [
  { pattern: /\bescalation rates?\b/, name: 'escalation_rate', expression: (d, t) => `avg(${d.integer(`${t}.escalated`)})`, columns: ['escalated'] },
  { pattern: /\b(?:first-contact )?resolution rates?\b/, name: 'resolution_rate', expression: (d, t) => `avg(${d.integer(`${t}.resolved`)})`, columns: ['resolved'] },
  { pattern: /\bsurvey response rates?\b|\bshare of contacts with a csat score\b/, name: 'survey_response_rate', expression: (d, t) => `avg(${d.integer(`(${t}.csat IS NOT NULL)`)})`, columns: ['csat'] },
  { pattern: /\b(?:mean|average) csat\b/, name: 'mean_csat', expression: (_d, t) => `avg(${t}.csat)`, columns: ['csat'] },
  { pattern: /\b(?:mean|average) hold(?: time)?\b/, name: 'mean_hold_s', expression: (_d, t) => `avg(${t}.hold_s)`, columns: ['hold_s'] },
  { pattern: /\b(?:mean|average) (?:call duration|handle time)\b/, name: 'mean_duration_s', expression: (_d, t) => `avg(${t}.duration_s)`, columns: ['duration_s'] },
  { pattern: /\b(?:mean|average) (?:number of )?transfers\b/, name: 'mean_transfers', expression: (_d, t) => `avg(${t}.transfers)`, columns: ['transfers'] },
  { pattern: /\b(?:mean|average) (?:change in sentiment|sentiment change)(?: from start to end)?\b/, name: 'mean_sentiment_change', expression: (_d, t) => `avg(${t}.sentiment_end - ${t}.sentiment_start)`, columns: ['sentiment_end', 'sentiment_start'] },
  { pattern: /\b(?:mean|average) qa scores?\b/, name: 'mean_score', expression: (_d, t) => `avg(${t}.score)`, columns: ['score'] },
  { pattern: /\b(?:average )?number of calls per calendar day\b/, name: 'calls_per_day', expression: (d, _t, time) => d.divide('count(*)', `count(DISTINCT ${d.day(time)})`), usesTime: true, columns: [] },
];

/** Words that carry structure, not data: what may remain once every recognised phrase is taken out. */
const STRUCTURAL = new Set(
  ('a an the of per for each every with and or to in on at by from its their them this that those these which who whose what is are be been ' +
    'compute count list return give find show ids id calls call contacts contact callers caller customers customer agents agent handled taken ' +
    'rate rates mean average highest lowest largest smallest longest shortest most least top first last one other others than kind kinds ' +
    'by group grouped found listed returned passages key moments moment value values number all rest remaining comparison compare against ' +
    'any both between into same whole overall result results plus also only where when whether did do does has have had totals total').split(/\s+/),
);


/** Noun phrases of the catalog: each column's spaced name ("time zone", "call driver"), an id column's stem ("agent"), a multi-word name's last word ("driver"). */
const nounCache = new WeakMap<SqlCatalog, { nouns: Map<string, CatalogColumn[]>; alternatives: string }>();

function nounsOf(catalog: SqlCatalog): { nouns: Map<string, CatalogColumn[]>; alternatives: string } {
  const cached = nounCache.get(catalog);
  if (cached) return cached;
  const nouns = new Map<string, CatalogColumn[]>();
  const add = (noun: string, column: CatalogColumn) => nouns.set(noun, [...(nouns.get(noun) ?? []), column]);
  for (const columns of catalog.tables.values()) {
    for (const column of columns) {
      const spaced = column.name.replaceAll('_', ' ');
      if (column.name.endsWith('_id')) add(spaced.slice(0, -3), column);
      else add(spaced, column);
      const words = spaced.split(' ');
      if (words.length > 1 && !column.name.endsWith('_id') && !/^(s|months)$/.test(words.at(-1)!)) add(words.at(-1)!, column);
      if (words.length > 1 && /^(s|months)$/.test(words.at(-1)!)) add(words.slice(0, -1).join(' '), column);
    }
  }
  const alternatives = [...nouns.keys()].sort((a, b) => b.length - a.length).map(escape).join('|');
  const built = { nouns, alternatives };
  nounCache.set(catalog, built);
  return built;
}

const compiledCache = new Map<string, RegExp>();
/** A regular expression compiled once per source and flags (the frame parser builds its patterns from the catalog's nouns and values). */
function compiled(source: string, flags = ''): RegExp {
  const key = `${flags}/${source}`;
  let pattern = compiledCache.get(key);
  if (!pattern) {
    pattern = new RegExp(source, flags);
    compiledCache.set(key, pattern);
  }
  return pattern;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** What a step's lead words say it returns (its frame's shape), read without the catalog; undefined when they say nothing known. */
export function frameShapeOf(prompt: string): FrameShape | undefined {
  const original = prompt.toLowerCase();
  if (/^\s*(?:list|return|give|find) (?:the )?(?:call )?ids\b/.test(original)) return 'ids';
  if (/^\s*count (?:the )?key moments\b/.test(original)) return 'moments';
  if (/\bper day and return the first day whose count is at least (\w+) times the median daily count\b/.test(original)) return 'spike';
  if (/^\s*compare\b/.test(original)) return 'compare';
  if (/^\s*compute (?:the |each \w+'s )?change in\b/.test(original) || /\bbefore and after \d{4}-\d{2}-\d{2}\b.*\blargest (?:drop|fall|rise|increase)\b/.test(original)) return 'change';
  if (/^\s*(?:return|give|show) the [a-z ,]+ of the [a-z ]+ found in \(\d+\)/.test(original)) return 'attributes';
  if (/\breturn the .* with the (?:highest|lowest|largest|smallest|longest|shortest|most|fewest)\b|\breturn the (?:busiest|quietest)\b|\breturn the (?:top|bottom) \w+\b/.test(original)) return 'top';
  if (/^\s*count\b.*\bper\b/.test(original)) return 'count-by';
  if (/^\s*(?:compute|count)\b/.test(original)) return 'aggregate';
  return undefined;
}

/** Parses a step's words into a frame, or says why it cannot be translated. `tool` RAG skips the leftover-word check (its words are the search). */
export function parseStepFrame(prompt: string, catalog: SqlCatalog, tool: 'T2S' | 'RAG' = 'T2S', fragment = false): FrameOutcome {
  const { nouns, alternatives: nounAlternatives } = nounsOf(catalog);
  let text = ` ${prompt.replace(/\s+/g, ' ').trim()} `;
  const lower = () => text.toLowerCase();
  const filters: Filter[] = [];
  const inputs = new Set<number>();
  /** Takes a phrase out of the text (so it is not read twice) and returns its matches. */
  const take = (pattern: RegExp): RegExpExecArray[] => {
    const found: RegExpExecArray[] = [];
    for (;;) {
      pattern.lastIndex = 0;
      const match = pattern.exec(lower());
      if (!match) return found;
      found.push(match);
      text = text.slice(0, match.index) + ' '.repeat(match[0].length) + text.slice(match.index + match[0].length);
    }
  };
  const columnsFor = (noun: string): CatalogColumn[] => nouns.get(noun.replace(/s$/, '')) ?? nouns.get(noun) ?? [];
  const original = prompt.toLowerCase();

  // Shape, from the lead words.
  let shape = frameShapeOf(prompt);
  if (!shape && tool === 'T2S' && !fragment) return { ok: false, reason: 'cannot translate: the step neither lists, counts, computes, compares nor returns anything I recognise' };
  shape ??= 'ids';

  // Spike: the factor, and "per day" is the grouping.
  let factor: number | undefined;
  for (const match of take(/\bper day and return the first day whose count is at least (\w+) times the median daily count\b/g)) factor = numberOf(match[1]!);

  // Calls an upstream step listed or retrieved.
  for (const match of take(/\b(?:listed|returned) in \((\d+)\)|\bwhose passages \((\d+)\) returned\b|\bthe passages in \((\d+)\)/g)) {
    const step = Number(match[1] ?? match[2] ?? match[3]);
    inputs.add(step);
    filters.push({ column: 'call_id', op: 'in', value: { kind: 'step-list', step } });
  }
  // A time window around a day an upstream step found.
  for (const match of take(/\b(outside|from|on|during) the day found in \((\d+)\)(?: and the (\w+) days? after)?/g)) {
    const step = Number(match[2]);
    inputs.add(step);
    filters.push({ column: 'day', op: match[1] === 'outside' ? 'not-between' : 'between', value: { kind: 'step', step }, span: match[3] ? numberOf(match[3]) : 0 });
  }
  // The entity an upstream step found, or everything but it.
  const entity = (noun: string, negated: boolean, step: number): FrameOutcome | null => {
    const columns = columnsFor(noun);
    if (columns.length === 0) return { ok: false, reason: `cannot translate: "${noun} found in (${step})" names no column of the database` };
    inputs.add(step);
    filters.push({ column: columns[0]!.name, op: negated ? '<>' : '=', value: { kind: 'step', step } });
    return null;
  };
  if (nounAlternatives) {
    for (const match of take(compiled(`\\b(${nounAlternatives})s? other than the one found in \\((\\d+)\\)`, 'g'))) {
      const failed = entity(match[1]!, true, Number(match[2]));
      if (failed) return failed;
    }
    for (const match of take(compiled(`\\b(outside|other than) the (${nounAlternatives}) found in \\((\\d+)\\)`, 'g'))) {
      const failed = entity(match[2]!, true, Number(match[3]));
      if (failed) return failed;
    }
    for (const match of take(compiled(`\\bthe (${nounAlternatives}) found in \\((\\d+)\\)`, 'g'))) {
      const failed = entity(match[1]!, false, Number(match[2]));
      if (failed) return failed;
    }
  }
  const unbound = /\((\d+)\)/.exec(lower());
  if (unbound) return { ok: false, reason: `cannot translate: the words around (${unbound[1]}) do not say which column step ${unbound[1]}'s result narrows` };

  // Thresholds and flags.
  for (const match of take(/\b(?:with |held |on hold )?(?:for )?more than (\d+) seconds(?: on hold)?\b/g)) filters.push({ column: 'hold_s', op: '>', value: { kind: 'literal', value: Number(match[1]) } });
  for (const match of take(/\b(?:with |held )?(\d+) seconds or less(?: on hold)?\b/g)) filters.push({ column: 'hold_s', op: '<=', value: { kind: 'literal', value: Number(match[1]) } });
  for (const match of take(/\b(?:with )?at least (\d+) transfers\b|\btransferred (\d+) times or more\b/g)) filters.push({ column: 'transfers', op: '>=', value: { kind: 'literal', value: Number(match[1] ?? match[2]) } });
  for (const _ of take(/\b(?:with )?no transfers?\b|\bnever transferred\b/g)) filters.push({ column: 'transfers', op: '=', value: { kind: 'literal', value: 0 } });
  for (const match of take(/\brated (\d) or (\d) in csat\b|\bwith a csat of at most (\d)\b/g)) filters.push({ column: 'csat', op: '<=', value: { kind: 'literal', value: Number(match[2] ?? match[3]) } });
  for (const match of take(/\brated (\d) or more in csat\b|\bwith a csat of at least (\d)\b/g)) filters.push({ column: 'csat', op: '>=', value: { kind: 'literal', value: Number(match[1] ?? match[2]) } });
  for (const match of take(/\b(?:with )?(?:a )?tenure (?:under|below|of less than) (\d+) months\b/g)) filters.push({ column: 'tenure_months', op: '<', value: { kind: 'literal', value: Number(match[1]) } });
  for (const match of take(/\b(?:with )?(?:a )?tenure of at least (\d+) months\b/g)) filters.push({ column: 'tenure_months', op: '>=', value: { kind: 'literal', value: Number(match[1]) } });
  let minCount: number | undefined;
  for (const match of take(/\b(?:with )?at least (\d+) (?:calls|evaluations)\b/g)) minCount = Number(match[1]);
  for (const _ of take(/\b(?:not escalated|non-escalated)\b/g)) filters.push({ column: 'escalated', op: 'false' });
  for (const _ of take(/\bescalated\b/g)) filters.push({ column: 'escalated', op: 'true' });
  for (const _ of take(/\b(?:unresolved|not resolved)\b/g)) filters.push({ column: 'resolved', op: 'false' });
  for (const _ of take(/\bresolved(?= calls| contacts)\b/g)) filters.push({ column: 'resolved', op: 'true' });
  // Time windows with dates.
  let pivot: string | undefined;
  for (const match of take(/\bbefore and after (\d{4}-\d{2}-\d{2})\b|\bacross (\d{4}-\d{2}-\d{2})\b/g)) pivot = match[1] ?? match[2];
  for (const match of take(/\bbetween (\d{4}-\d{2}-\d{2}) and (\d{4}-\d{2}-\d{2})\b/g)) {
    filters.push({ column: 'time', op: '>=', value: { kind: 'literal', value: match[1]! } });
    filters.push({ column: 'time', op: '<', value: { kind: 'literal', value: `${match[2]!} +1` } });
  }
  for (const match of take(/\b(?:after|since|on or after|from) (\d{4}-\d{2}-\d{2})\b/g)) filters.push({ column: 'time', op: '>=', value: { kind: 'literal', value: match[1]! } });
  for (const match of take(/\bbefore (\d{4}-\d{2}-\d{2})\b/g)) filters.push({ column: 'time', op: '<', value: { kind: 'literal', value: match[1]! } });

  // The measure.
  let measure: Measure | undefined;
  for (const candidate of MEASURES) {
    if (take(compiled(candidate.pattern.source, 'g')).length > 0 && !measure) measure = { name: candidate.name, expression: candidate.expression, ...(candidate.usesTime ? { usesTime: true } : {}), columns: candidate.columns };
  }
  if (!measure && shape === 'change') {
    /* handled below: a change needs a measure */
  }

  // Grouping and direction.
  let group: string | undefined;
  for (const _ of take(/\b(?:for each|per) day of the week\b/g)) group = 'weekday';
  if (nounAlternatives) {
    for (const match of take(compiled(`\\b(?:per|for each|by|of each) (?:caller |agent |customer )?(${nounAlternatives})\\b`, 'g'))) group ??= columnsFor(match[1]!)[0]?.name;
  }
  let direction: StepFrame['direction'];
  let limit: number | undefined;
  for (const match of take(/\breturn the (top|bottom) (\w+)\b/g)) {
    direction = match[1] === 'top' ? 'highest' : 'lowest';
    limit = numberOf(match[2]!);
  }
  for (const match of take(/\b(?:return )?the (?:[a-z ]+ )?with the (highest|lowest|largest|smallest|longest|shortest|most|fewest)(?: [a-z]+)?\b|\breturn the (busiest|quietest)(?: [a-z]+)?\b/g)) {
    const word = match[1] ?? match[2]!;
    direction = /highest|largest|longest|most|busiest/.test(word) ? 'highest' : 'lowest';
    if (shape === 'change' && /largest/.test(word) && /drop|fall/.test(match[0])) direction = 'lowest';
  }
  for (const match of take(/\blargest (drop|fall|rise|increase)\b/g)) direction = /drop|fall/.test(match[1]!) ? 'lowest' : 'highest';
  if (shape === 'top' && !direction) return { ok: false, reason: 'cannot translate: "return the …" without saying highest or lowest' };

  // Attributes of an entity: the nouns listed before "of the … found in".
  let attributes: string[] | undefined;
  if (shape === 'attributes') {
    const listed = /^\s*(?:return|give|show) the ([a-z ,]+?) of\s/.exec(lower());
    if (listed) {
      attributes = [];
      for (const word of listed[1]!.split(/,|\band\b/).map((part) => part.trim()).filter(Boolean)) {
        const column = columnsFor(word)[0];
        if (!column) return { ok: false, reason: `cannot translate: "${word}" is not a column of the database` };
        attributes.push(column.name);
      }
      text = text.replace(/^\s*(?:return|give|show) the [a-z ,]+? of\s/i, ' ');
    }
  }

  // Values a column comment enumerates: quoted, next to the column's noun, before "calls"/"contacts", or unmistakable (A-Z, _, /).
  const valueFilters = findValues(catalog, nouns, lower, (start, length) => {
    text = text.slice(0, start) + ' '.repeat(length) + text.slice(start + length);
  });
  if (!valueFilters.ok) return valueFilters;
  filters.push(...valueFilters.filters);

  if (tool === 'T2S' && fragment) shape = 'compare';
  if (tool === 'T2S') {
    const leftover = lower()
      .replace(/'[^']*'/g, ' ')
      .split(/[^a-z0-9_-]+/)
      .filter((word) => word.length > 1 && !STRUCTURAL.has(word) && !/^\d+$/.test(word) && !/^(?:day|days|week|drop|change|calendar|median|twice|times|seconds|months|score|scores|rated|csat|qa|spike|period|since|after|before|bottom)$/.test(word));
    if (leftover.length > 0) return { ok: false, reason: `cannot translate: no column, value or measure of the database means "${[...new Set(leftover)].join('", "')}"` };
    if (!fragment && (shape === 'top' || shape === 'aggregate' || shape === 'compare' || shape === 'change') && !measure && !/^\s*count\b/.test(original)) {
      return { ok: false, reason: 'cannot translate: the step names no measure I know (a rate, a mean, a count)' };
    }
    if ((shape === 'top' || shape === 'count-by' || shape === 'change') && !group && shape !== 'change') return { ok: false, reason: 'cannot translate: the step does not say what to group by ("per …")' };
  }
  const frame: StepFrame = { shape, filters, inputs: [...inputs].sort((a, b) => a - b) };
  if (measure) frame.measure = measure;
  if (group) frame.group = group;
  if (direction) frame.direction = direction;
  if (limit) frame.limit = limit;
  if (minCount !== undefined) frame.minCount = minCount;
  if (factor !== undefined) frame.factor = factor;
  if (attributes) frame.attributes = attributes;
  if (pivot) frame.pivot = pivot;
  return { ok: true, frame };
}

const valueCache = new WeakMap<SqlCatalog, { byValue: Map<string, CatalogColumn[]>; nounOf: Map<string, string[]>; values: string[] }>();

/** The catalog's enumerated values → their columns, each column's nouns, the values longest first (cached per catalog). */
function valuesOf(catalog: SqlCatalog, nouns: Map<string, CatalogColumn[]>): { byValue: Map<string, CatalogColumn[]>; nounOf: Map<string, string[]>; values: string[] } {
  const cached = valueCache.get(catalog);
  if (cached) return cached;
  const byValue = new Map<string, CatalogColumn[]>();
  for (const columns of catalog.tables.values()) {
    for (const column of columns) for (const value of column.values) byValue.set(value, [...(byValue.get(value) ?? []), column]);
  }
  const nounOf = new Map<string, string[]>();
  for (const [noun, columns] of nouns) for (const column of columns) nounOf.set(column.name, [...(nounOf.get(column.name) ?? []), noun]);
  const built = { byValue, nounOf, values: [...byValue.keys()].sort((a, b) => b.length - a.length) };
  valueCache.set(catalog, built);
  return built;
}

function findValues(
  catalog: SqlCatalog,
  nouns: Map<string, CatalogColumn[]>,
  read: () => string,
  consume: (start: number, length: number) => void,
): { ok: true; filters: Filter[] } | { ok: false; reason: string } {
  const { byValue, nounOf, values } = valuesOf(catalog, nouns);
  const filters: Filter[] = [];
  // Longest values first, so 'billing_dispute' is read before 'billing'.
  let current = read();
  for (const value of values) {
    const plain = [...new Set([value.toLowerCase(), value.toLowerCase().replaceAll('_', ' ')])];
    if (!plain.some((form) => current.includes(form))) continue;
    current = read();
    const forms = plain.map(escape).join('|');
    const pattern = compiled(`'(${forms})'|(?<![a-z_/-])(${forms})(?![a-z_/-])`, 'g');
    const text = read();
    for (const match of text.matchAll(pattern)) {
      const quoted = match[1] !== undefined;
      const columns = [...new Map(byValue.get(value)!.map((column) => [column.name, column])).values()];
      const after = text.slice(match.index + match[0].length, match.index + match[0].length + 40);
      const before = text.slice(Math.max(0, match.index - 40), match.index);
      const near = columns.filter((column) => (nounOf.get(column.name) ?? []).some((noun) => compiled(`^\\s*(?:${escape(noun)})s?\\b`).test(after) || compiled(`\\b${escape(noun)}s?\\s*$`).test(before)));
      const unmistakable = /[A-Z_/]/.test(value) || /^[A-Z]/.test(value);
      const beforeCalls = /^\s*(?:calls|contacts|customers|callers)\b/.test(after);
      if (!(quoted || near.length > 0 || unmistakable || beforeCalls)) continue;
      const chosen = near.length > 0 ? near : columns;
      if (chosen.length > 1) return { ok: false, reason: `cannot translate: '${value}' is a value of ${chosen.map((column) => column.name).join(' and ')}; say which` };
      filters.push({ column: chosen[0]!.name, op: '=', value: { kind: 'literal', value } });
      consume(match.index, match[0].length);
      // The column's own noun next to the value is part of the filter's words.
      for (const noun of nounOf.get(chosen[0]!.name) ?? []) {
        const nounAfter = compiled(`^(\\s*${escape(noun)}s?)\\b`).exec(after);
        if (nounAfter) consume(match.index + match[0].length, nounAfter[1]!.length);
        const nounBefore = compiled(`(\\b${escape(noun)}s?\\s*)$`).exec(before);
        if (nounBefore) consume(match.index - nounBefore[1]!.length, nounBefore[1]!.length);
      }
    }
  }
  // Identifiers in the format a column's comment shows by example ("e.g. 'A-0042'"): never enumerated, unmistakable.
  const seen = new Set<string>();
  for (const columns of catalog.tables.values()) {
    for (const column of columns) {
      if (!column.example || seen.has(column.name)) continue;
      seen.add(column.name);
      const shape = escape(column.example.toLowerCase()).replace(/\d/g, '\\d');
      for (const match of read().matchAll(compiled(`(?<![a-z0-9_/-])${shape}(?![a-z0-9_/-])`, 'g'))) {
        const value = column.example === column.example.toUpperCase() ? match[0].toUpperCase() : match[0];
        filters.push({ column: column.name, op: '=', value: { kind: 'literal', value } });
        consume(match.index, match[0].length);
      }
    }
  }
  return { ok: true, filters };
}
