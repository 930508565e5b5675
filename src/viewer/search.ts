import { listValue } from '@duckdb/node-api';
import type { ResultsStore, Row } from '../results/store.ts';

/**
 * Search across every indexed episode (the runs page's search box), in the results store: `task:ID`, `tool:NAME`
 * (a tool the agent called), `violated:X` (a constraint category or id with a verdict against it), `status:S`
 * (completed, limit, error, incomplete, running), `run:NAME`, and any other text, taken as one phrase (case-free)
 * found in a message: the system and user messages, the agent's text and reasoning and tool calls, the tool
 * messages, the feedback. Every criterion must hold (task, tool, violated and run match as substrings); each episode
 * comes with the first event that matched, so its link opens the transcript there.
 */
export interface SearchQuery {
  text: string;
  task?: string;
  tool?: string;
  violated?: string;
  status?: string;
  run?: string;
}

type Field = Exclude<keyof SearchQuery, 'text'>;

/** Parses the search box: `field:value` (a value may be "quoted") for the fields above; the rest is the phrase. */
export function parseSearch(input: string): SearchQuery {
  const query: SearchQuery = { text: '' };
  const rest = input.replace(/\b(task|tool|violated|status|run):("([^"]*)"|\S+)/g, (_, field: Field, raw: string, quoted?: string) => {
    query[field] = quoted ?? raw;
    return ' ';
  });
  query.text = rest.replace(/\s+/g, ' ').trim();
  return query;
}

/** A LIKE pattern finding `value` anywhere, its own `%`, `_` and `\` taken literally (ESCAPE '\'). */
function containing(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The text of an event that the phrase is looked for in (the agent's message content, reasoning and calls included). */
const EVENT_TEXT = `concat_ws(chr(10), content, arguments, message ->> '$.content', message ->> '$.reasoning',
  array_to_string(CAST(json_extract_string(message, '$.tool_calls[*].function.arguments') AS VARCHAR[]), chr(10)),
  array_to_string(CAST(json_extract_string(messages, '$[*].content') AS VARCHAR[]), chr(10)))`;

/** Up to `limit` episodes matching the query (and how many match in all), each with its first matching event and a snippet. */
export async function searchEpisodes(store: ResultsStore, input: string, limit = 100): Promise<{ query: SearchQuery; total: number; rows: Row[] }> {
  const query = parseSearch(input);
  const params: string[] = [];
  const bind = (value: string) => {
    params.push(value);
    return `$${params.length}`;
  };
  // each criterion over events: the episodes it holds in, with the first event (seq) it matched
  const criteria: string[] = [];
  // a tool-call event repeats the call its model response holds: the text is found in the response
  if (query.text) {
    // First a scan of the lower-cased text the index keeps per event (steps.search_text: the JSON columns as JSON
    // text, so the phrase is looked for as it is, JSON-escaped, and twice escaped for a tool call's arguments inside
    // the message), which every matching event passes; then the exact match on the extracted texts for those rows
    // only: the JSON is parsed for candidates, not for every event.
    const once = JSON.stringify(query.text).slice(1, -1);
    const twice = JSON.stringify(once).slice(1, -1);
    const forms = [...new Set([query.text, once, twice])].map((form) => `contains(search_text, lower(${bind(form)}))`);
    const plain = bind(containing(query.text));
    criteria.push(`SELECT episode_id, min(seq) AS seq FROM steps
      WHERE (${forms.join(' OR ')})
        AND ${EVENT_TEXT} ILIKE ${plain} ESCAPE '\\'
      GROUP BY episode_id`);
  }
  // episodes where the agent called the tool, at the first tool message answering it (what the chat view shows)
  if (query.tool) {
    criteria.push(`SELECT episode_id, coalesce(min(seq) FILTER (WHERE type = 'tool-result'), min(seq)) AS seq FROM steps
      WHERE type IN ('tool-call', 'tool-result') AND name ILIKE ${bind(containing(query.tool))} ESCAPE '\\' GROUP BY episode_id HAVING count(*) FILTER (WHERE type = 'tool-call') > 0`);
  }
  if (query.violated) {
    const pattern = bind(containing(query.violated));
    criteria.push(`SELECT episode_id, min(seq) AS seq FROM verdicts WHERE category ILIKE ${pattern} ESCAPE '\\' OR constraint_id ILIKE ${pattern} ESCAPE '\\' GROUP BY episode_id`);
  }
  const where: string[] = [];
  if (query.task) where.push(`e.task_id ILIKE ${bind(containing(query.task))} ESCAPE '\\'`);
  if (query.status) where.push(`e.status = ${bind(query.status)}`);
  if (query.run) where.push(`r.name ILIKE ${bind(containing(query.run))} ESCAPE '\\'`);
  if (criteria.length === 0 && where.length === 0) return { query, total: 0, rows: [] };
  const joins = criteria.map((sql, index) => `JOIN (${sql}) c${index} USING (episode_id)`).join('\n');
  const seq = criteria.length === 0 ? 'CAST(NULL AS INTEGER)' : 'c0.seq';
  const rows = await store.query(
    `SELECT e.episode_id, e.run_dir, r.name AS run, e.task_id, e.repeat, e.status, e.passed, ${seq} AS seq, CAST(count(*) OVER () AS INTEGER) AS total
     FROM episode_scores e JOIN runs r USING (run_dir) ${joins}
     ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
     ORDER BY r.name, e.task_id, e.repeat LIMIT ${Math.max(1, Math.min(limit, 500))}`,
    params,
  );
  const total = Number(rows[0]?.total ?? 0);
  await addSnippets(store, rows, query.text);
  for (const row of rows) delete row.total;
  return { query, total, rows };
}

/** Each row's matching event as a line: its type, and the text around the phrase (or the start of its text). */
async function addSnippets(store: ResultsStore, rows: Row[], text: string): Promise<void> {
  const wanted = rows.filter((row) => row.seq !== null);
  if (wanted.length === 0) return;
  // a join on (episode_id, seq): a key built per row of steps would cost a string for every event of the store
  const events = await store.query(
    `SELECT episode_id, seq, type, name, ${EVENT_TEXT} AS text
     FROM steps JOIN (SELECT unnest($1::VARCHAR[]) AS episode_id, unnest($2::INTEGER[]) AS seq) USING (episode_id, seq)`,
    [listValue(wanted.map((row) => row.episode_id as string)), listValue(wanted.map((row) => Number(row.seq)))],
  );
  const byKey = new Map(events.map((event) => [`${event.seq} ${event.episode_id}`, event]));
  for (const row of wanted) {
    const event = byKey.get(`${row.seq} ${row.episode_id}`);
    if (!event) continue;
    const body = String(event.text ?? '').replace(/\s+/g, ' ');
    const at = text ? body.toLowerCase().indexOf(text.toLowerCase()) : -1;
    const from = Math.max(0, at - 60);
    row.event = `${event.type}${event.name ? ` ${event.name}` : ''}`;
    row.snippet = `${from > 0 ? '…' : ''}${body.slice(from, Math.max(at, 0) + text.length + 60)}${body.length > Math.max(at, 0) + text.length + 60 ? '…' : ''}`;
  }
}
