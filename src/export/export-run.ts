import { open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SandboxError } from '../sandbox-error.ts';
import { readTrajectorySync } from '../schemas/read-trajectory.ts';
import type { EpisodeScore } from '../schemas/score.ts';
import { chatRecord, type ExportRecord } from './chat-record.ts';
import { ToolLists } from './tool-lists.ts';

export type ExportFormat = 'chat-jsonl' | 'parquet';

/** The Parquet columns, as DuckDB reads each JSON line (chat-record.ts): nested lists of structs, metrics as JSON. */
const PARQUET_COLUMNS: Record<string, string> = {
  id: 'VARCHAR',
  task_id: 'VARCHAR',
  repeat: 'INTEGER',
  style: 'VARCHAR',
  model: 'VARCHAR',
  enforcement: 'VARCHAR',
  status: 'VARCHAR',
  reason: 'VARCHAR',
  final_answer: 'VARCHAR',
  messages: `STRUCT(role VARCHAR, content VARCHAR, tool_calls STRUCT(id VARCHAR, type VARCHAR, "function" STRUCT(name VARCHAR, arguments VARCHAR))[],
    reasoning VARCHAR, tool_call_id VARCHAR, name VARCHAR, feedback BOOLEAN, feedback_kind VARCHAR)[]`,
  tools: 'STRUCT(type VARCHAR, "function" STRUCT(name VARCHAR, description VARCHAR, parameters JSON))[]',
  steps: 'STRUCT(round INTEGER, kind VARCHAR, message_index INTEGER, enforcement VARCHAR, verdicts STRUCT(constraint_id VARCHAR, category VARCHAR, effect VARCHAR, call_id VARCHAR, message VARCHAR)[])[]',
  passed: 'BOOLEAN',
  metrics: 'JSON',
  reward: 'DOUBLE',
};

/** Summary.json's scores of a run, by trajectory file name; an episode without one was not graded. */
async function scoresOf(runDir: string): Promise<Map<string, EpisodeScore>> {
  let text: string;
  try {
    text = await readFile(path.join(runDir, 'summary.json'), 'utf8');
  } catch {
    return new Map();
  }
  const summary = JSON.parse(text) as { episodes?: Array<{ taskId: string; repeat: number; score?: EpisodeScore | null }> };
  return new Map((summary.episodes ?? []).flatMap((episode) => (episode.score ? [[`${episode.taskId}.${episode.repeat}.jsonl`, episode.score] as const] : [])));
}

/**
 * The metrics a reward may name in this run (those of its scores, and `passed`); an unknown one is an error that
 * names the nearest.
 */
function checkReward(reward: string, scores: Iterable<EpisodeScore>): void {
  const known = new Set(['passed']);
  for (const score of scores) for (const name of Object.keys(score.metrics)) known.add(name);
  if (known.has(reward)) return;
  throw new SandboxError('invalid-input', `--reward ${reward}: no episode of this run has that metric (it has ${[...known].sort().join(', ')})`);
}

/**
 * Every episode of a run folder as one record (chat-record.ts), in file order: a JSON line each (`chat-jsonl`) or
 * one Parquet file written by DuckDB from those lines (`parquet`). Written to a partial file and renamed: whole or
 * not at all. Returns how many episodes were written.
 */
export async function exportRun(runDir: string, format: ExportFormat, out: string, reward: string | null): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(runDir)).filter((name) => name.endsWith('.jsonl')).sort();
  } catch {
    throw new SandboxError('not-found', `no run folder ${runDir}`);
  }
  if (names.length === 0) throw new SandboxError('not-found', `no trajectories in ${runDir}`);
  const scores = await scoresOf(runDir);
  if (reward !== null) checkReward(reward, scores.values());
  const run = path.basename(path.resolve(runDir));
  const partial = `${out}.${process.pid}.partial`;
  const records = names.map((name) => () => {
    const { events } = readTrajectorySync(path.join(runDir, name));
    return chatRecord(`${run}/${name.replace(/\.jsonl$/, '')}`, events, scores.get(name) ?? null, reward);
  });
  const episodes = `${partial}.jsonl`;
  const toolLists = `${partial}.tools.jsonl`;
  try {
    if (format === 'chat-jsonl') {
      await writeLines(partial, records, (record) => record);
    } else {
      // each distinct tools list once (tool-lists.ts): an episode's line carries its index instead of the list (or
      // the list itself, when it was not kept)
      const lists = new ToolLists(TOOL_LISTS_IN_VARIABLE);
      await writeLines(episodes, records, (record) => {
        const index = lists.indexOf(record.task_id, record.tools);
        if (index === null) return record;
        const { tools: _tools, ...rest } = record;
        return { ...rest, tools_index: index };
      });
      if (lists.size > 0) await writeFile(toolLists, lists.lines());
      await writeParquet(episodes, lists.size > 0 ? toolLists : null, partial);
    }
    await rename(partial, out);
  } finally {
    await Promise.all([partial, episodes, toolLists].map((file) => rm(file, { force: true })));
  }
  return names.length;
}

/**
 * Writes one JSON line per record (as `line` makes it from the record), in order, a batch of trajectories at a time
 * (never the whole run in memory). The files are read synchronously: one small trajectory read through promises cost
 * more than parsing it (10,000 of them).
 */
async function writeLines(file: string, records: Array<() => ExportRecord>, line: (record: ExportRecord) => unknown): Promise<void> {
  const handle = await open(file, 'w');
  try {
    for (let from = 0; from < records.length; from += 256) {
      await handle.write(records.slice(from, from + 256).map((record) => `${JSON.stringify(line(record()))}\n`).join(''));
    }
  } finally {
    await handle.close();
  }
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** DuckDB's JSON reader over a file of JSON lines, with these columns and types. */
function readJson(file: string, columns: Record<string, string>): string {
  const struct = `{${Object.entries(columns).map(([name, type]) => `${quote(name)}: ${quote(type)}`).join(', ')}}`;
  return `read_json(${quote(file)}, format = 'newline_delimited', columns = ${struct}, maximum_object_size = 1073741824)`;
}

/**
 * At most this many bytes of distinct tools lists (their JSON) are kept and given to DuckDB in a variable; the
 * episodes of lists past it carry their own. The variable costs CPU in proportion to its size (10,000 distinct CCTU
 * lists, 270 MB, in one: 46 CPU-s, against 15 with every episode carrying its own); 8 MB is ≈300 such lists.
 */
export const TOOL_LISTS_IN_VARIABLE = 8 * 1024 * 1024;

/**
 * The episodes' JSON lines as Parquet, through DuckDB's JSON reader (explicit columns: the schema does not depend on
 * the data). A line without its tools has the index of its list in `toolLists`: the lists are read first into a
 * variable and each row's taken from it, a projection of the scan, which keeps the lines' order and streams to the
 * writer (a join would need an ORDER BY, which holds and sorts every row's tools: more CPU and memory).
 */
async function writeParquet(episodes: string, toolLists: string | null, out: string): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const tools = toolLists === null ? 'episodes.tools' : "coalesce(episodes.tools, getvariable('tool_lists')[episodes.tools_index + 1])";
  const selected = Object.keys(PARQUET_COLUMNS).map((name) => (name === 'tools' ? `${tools} AS tools` : `episodes.${identifier(name)}`));
  try {
    if (toolLists !== null) await connection.run(`SET VARIABLE tool_lists = (SELECT list(tools ORDER BY index) FROM ${readJson(toolLists, { index: 'INTEGER', tools: PARQUET_COLUMNS.tools! })})`);
    await connection.run(`COPY (SELECT ${selected.join(', ')} FROM ${readJson(episodes, { ...PARQUET_COLUMNS, tools_index: 'INTEGER' })} AS episodes)
      TO ${quote(out)} (FORMAT parquet, COMPRESSION zstd)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
