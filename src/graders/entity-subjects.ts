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

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patterns = new WeakMap<EntityNames, RegExp>();

function patternOf(entities: EntityNames): RegExp {
  let pattern = patterns.get(entities);
  if (!pattern) {
    const kind = entities.kind ? `${escape(entities.kind.toLowerCase())}\\s+#?` : '(?!)';
    const alternatives = [...new Set([...entities.own, ...entities.others.keys()])]
      .filter((text) => text.trim() !== '')
      .sort((a, b) => b.length - a.length)
      .map((text) => (/^\d+$/.test(text) ? `(?<=${kind})${escape(text)}` : escape(text)));
    pattern = alternatives.length === 0 ? /(?!)/g : new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?:'s)?(?![\\p{L}\\p{N}])`, 'gu');
    patterns.set(entities, pattern);
  }
  return pattern;
}

const REFERENCE_BEFORE = /(\bthan|\bvs\.?|\bversus|\bcompared (with|to)|\bunlike|\blike|\bagainst)\s+(the\s+)?([\p{L}]+\s+)?$/u;

/**
 * The entity mentions of a normalised clause with their roles. Another entity's id or name is a value when a
 * category item of the checklist takes it (`isChoice`) and it is not the clause's first entity mention, or is the
 * clause's only statement ("Its main destination is Elm Park."); otherwise it is the subject of what follows
 * ("Station S005 had 288 departures"). This task's own id or name is always a subject: never a candidate answer.
 */
export function entityMentions(clause: string, entities: EntityNames, isChoice: (entity: string) => boolean, otherValues: readonly Mention[]): EntityMention[] {
  const own = new Set(entities.own);
  const found: EntityMention[] = [];
  const possessive: boolean[] = [];
  for (const match of clause.matchAll(patternOf(entities))) {
    const text = match[0].replace(/'s$/, '');
    const entity = own.has(text) ? null : entities.others.get(text)!;
    const before = clause.slice(Math.max(0, match.index - 30), match.index);
    found.push({ entity, start: match.index, end: match.index + match[0].length, role: REFERENCE_BEFORE.test(before) ? 'reference' : 'subject' });
    possessive.push(match[0].endsWith("'s"));
  }
  found.forEach((mention, index) => {
    if (mention.entity === null || mention.role === 'reference' || possessive[index] || !isChoice(mention.entity)) return;
    // The only statement of its clause: no number and no other named value beside it (direction words aside).
    const alone = found.length === 1 && !otherValues.some((value) => value.kind !== 'direction' && (value.end <= mention.start || value.start >= mention.end));
    // A list of entities ("D1, D3, D5 and D7") is a list of values, the first one too.
    const next = found[index + 1];
    const listed = next !== undefined && /^\s*(,|and|or|&|\/)\s*(and\s+|or\s+)?$/.test(clause.slice(mention.end, next.start));
    if (index > 0 || alone || listed) mention.role = 'value';
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
