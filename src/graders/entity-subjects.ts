import type { Mention } from './clause-mentions.ts';

/**
 * The entities of the task's kind in the served database, so that the subject of a sentence decides whose fact it
 * is: this task's entity (its id and its name from the database's name column) and every other one (id or name →
 * its id). All lower case.
 */
export interface EntityNames {
  /** The entity kind ("station"): an id that is a bare number counts only after it ("station 5"). */
  kind?: string;
  own: readonly string[];
  others: ReadonlyMap<string, string>;
}

/** A place in a clause that names an entity: this task's (`entity` null) or another's (its id). */
export interface EntityMention {
  entity: string | null;
  start: number;
  end: number;
  /** subject: whose facts follow; value: the answer of a category item ("most trips end at S005"); reference: a point of comparison ("than S005"). */
  role: 'subject' | 'value' | 'reference';
}

interface EntityIndex {
  /** An id or name, its words joined by one space → this task's (null) or another's id. */
  byText: Map<string, string | null>;
  /** The most words an id or name has. */
  longest: number;
  /** The first word of every id and name (a run starting elsewhere names none). */
  firsts: Set<string>;
}
const indexes = new WeakMap<EntityNames, EntityIndex>();
const wordsOf = (text: string) => text.split(/\s+/).filter((word) => word !== '');

function indexOf(entities: EntityNames): EntityIndex {
  let index = indexes.get(entities);
  if (!index) {
    const byText = new Map<string, string | null>();
    for (const [text, id] of entities.others) byText.set(wordsOf(text).join(' '), id);
    for (const text of entities.own) byText.set(wordsOf(text).join(' '), null);
    byText.delete('');
    index = { byText, longest: Math.max(1, ...[...byText.keys()].map((text) => text.split(' ').length)), firsts: new Set([...byText.keys()].map((text) => text.split(' ')[0]!)) };
    indexes.set(entities, index);
  }
  return index;
}

/** The clause's words (runs of non-space characters without the punctuation around them), with their offsets. */
function clauseWords(clause: string): Array<{ word: string; start: number; end: number }> {
  const words: Array<{ word: string; start: number; end: number }> = [];
  for (const match of clause.matchAll(/\S+/g)) {
    const lead = /^[("'[]*/.exec(match[0])![0].length;
    const word = match[0].slice(lead).replace(/[)"'\].,;:!?]+$/, '');
    if (word !== '') words.push({ word, start: match.index + lead, end: match.index + lead + word.length });
  }
  return words;
}

/**
 * Where a clause names an entity: the longest run of words that is an id or a name (a possessive "'s" read as the
 * entity); an id that is a bare number only after the entity kind ("station 5").
 */
function findEntities(clause: string, entities: EntityNames): Array<{ entity: string | null; start: number; end: number; possessive: boolean }> {
  const { byText, longest, firsts } = indexOf(entities);
  const words = clauseWords(clause);
  const kind = entities.kind?.toLowerCase();
  const found: Array<{ entity: string | null; start: number; end: number; possessive: boolean }> = [];
  for (let first = 0; first < words.length; first += 1) {
    if (!firsts.has(words[first]!.word) && !firsts.has(words[first]!.word.replace(/'s$/, ''))) continue;
    for (let count = Math.min(longest, words.length - first); count >= 1; count -= 1) {
      const run = words.slice(first, first + count);
      const last = run.at(-1)!.word;
      const possessive = last.endsWith("'s");
      const text = [...run.slice(0, -1).map((entry) => entry.word), possessive ? last.slice(0, -2) : last].join(' ');
      if (!byText.has(text) || (/^\d+$/.test(text) && words[first - 1]?.word !== kind)) continue;
      found.push({ entity: byText.get(text)!, start: run[0]!.start, end: run.at(-1)!.end, possessive });
      first += count - 1;
      break;
    }
  }
  return found;
}

const SUBJECT_AFTER = /^\s*(had|has|have|is|was|were|are|saw|sees|recorded|records|logged|logs|got|gets|averaged|averages|showed|shows)\b/;
const CONTRAST_BEFORE = /\b(while|whereas|but|unlike)\s+(station\s+|depot\s+|the\s+)?$/;
const REFERENCE_BEFORE = /(\bthan|\bvs\.?|\bversus|\bcompared (with|to)|\bunlike|\blike|\bagainst)\s+(the\s+)?([\p{L}]+\s+)?$/u;

/**
 * The entity mentions of a normalised clause with their roles. Another entity's id or name is a value when a
 * category item of the checklist takes it (`isChoice`) and it is not the clause's first entity mention, or is the
 * clause's only statement ("Its main destination is Elm Park."); otherwise it is the subject of what follows
 * ("Station S005 had 288 departures"). This task's own id or name is always a subject: never a candidate answer.
 */
export function entityMentions(clause: string, entities: EntityNames, isChoice: (entity: string) => boolean, otherValues: readonly Mention[]): EntityMention[] {
  const found: EntityMention[] = [];
  const possessive: boolean[] = [];
  for (const match of findEntities(clause, entities)) {
    const before = clause.slice(Math.max(0, match.start - 30), match.start);
    found.push({ entity: match.entity, start: match.start, end: match.end, role: REFERENCE_BEFORE.test(before) ? 'reference' : 'subject' });
    possessive.push(match.possessive);
  }
  found.forEach((mention, index) => {
    if (mention.entity === null || mention.role === 'reference' || possessive[index] || !isChoice(mention.entity)) return;
    // The only statement of its clause: no number and no other named value beside it (direction words aside).
    const alone = found.length === 1 && !otherValues.some((value) => value.kind !== 'direction' && (value.end <= mention.start || value.start >= mention.end));
    // A list of entities ("D1, D3, D5 and D7") is a list of values, the first one too.
    const next = found[index + 1];
    const listed = next !== undefined && /^\s*(,|and|or|&|\/)\s*(and\s+|or\s+)?$/.test(clause.slice(mention.end, next.start));
    // A sentence of its own about it ("… while S005 had 290") makes it a subject wherever it stands.
    const acts = SUBJECT_AFTER.test(clause.slice(mention.end, mention.end + 20)) || CONTRAST_BEFORE.test(clause.slice(Math.max(0, mention.start - 12), mention.start));
    if (alone || (!acts && (index > 0 || listed))) mention.role = 'value';
  });
  return found;
}

/** Whether a clause is a dump of records (JSON, a table row): its values are candidates together, whoever they name. */
export function isRecordDump(clause: string): boolean {
  return /[{}|]|":/.test(clause);
}

/**
 * Whose fact a value at `position` is: the entity of the last subject or point of comparison before it ("more than
 * K-03's 250"), else of the clause's first
 * subject mention (a passive sentence names it after: "240 trips started at station S007"), else `carried` (the
 * subject of the sentences before: "Its trips …"). null is this task's entity.
 */
export function ownerAt(position: number, mentions: readonly EntityMention[], carried: string | null): string | null {
  const before = mentions.filter((mention) => mention.role !== 'value' && mention.end <= position).at(-1);
  if (before) return before.entity;
  return mentions.find((mention) => mention.role === 'subject')?.entity ?? carried;
}
