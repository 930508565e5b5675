import { arrow, type Arrow } from './apache-arrow.ts';

/** Consecutive turns per chunk: long enough to hold a question and its answer, short enough to rank precisely. */
export const DEFAULT_CHUNK_TURNS = 4;

/** The turns of one chunk, parsed from its `turns` and `text` columns. */
export interface ChunkTurn {
  turn: number;
  speaker: string;
  start_s: number | null;
  end_s: number | null;
  text: string;
}

/** Splits a chunk's `turns` and `text` columns back into turns. */
export function parseChunkTurns(turns: string, text: string): ChunkTurn[] {
  const lines = text.split('\n');
  return turns.split('\n').map((line, i) => {
    const [turn, speaker, start, end] = line.split('\t');
    return {
      turn: Number(turn),
      speaker: speaker ?? '?',
      start_s: start ? Number(start) : null,
      end_s: end ? Number(end) : null,
      text: lines[i] ?? '',
    };
  });
}

/** One row of the chunk table: a run of consecutive turns of one call, with the call's metadata for filtering. */
export interface TranscriptChunk {
  chunk_id: string;
  call_id: string;
  turn_from: number;
  turn_to: number;
  start_s: number;
  end_s: number;
  /** The turns' texts, one line per turn (new lines inside a turn are flattened to spaces). */
  text: string;
  /** `text` with negated words marked (negation.ts): the column the full-text index searches. */
  search_text?: string;
  /** One line per turn, `turn_index TAB speaker TAB start_s TAB end_s` (times may be empty), aligned with `text`. */
  turns: string;
  call_date: string;
  started_at: string;
  time_zone: string;
  queue: string;
  channel: string;
  call_driver: string;
  agent_id: string;
  team: string;
  /** 1 / 0 / null (unknown). Int8, not Bool: apache-arrow writes an all-null Bool column without its values
   * buffer, which LanceDB rejects, and imported transcripts without call metadata have exactly such columns. */
  resolved: number | null;
  escalated: number | null;
  vector?: Float32Array;
}

/** The column the full-text (BM25) index is built on. */
export const SEARCH_COLUMN = 'search_text';

/** Columns a search filter may touch, with the LanceDB scalar index each gets. */
export const FILTER_COLUMN_INDEXES = {
  call_id: 'btree',
  call_date: 'btree',
  queue: 'bitmap',
  time_zone: 'bitmap',
  agent_id: 'btree',
  team: 'bitmap',
  resolved: 'bitmap',
  escalated: 'bitmap',
} as const;

/** The Arrow schema of the chunk table; with `vectorDimensions`, a `vector` column for dense search. */
export function chunkSchema(vectorDimensions?: number): Arrow.Schema {
  const fields: Arrow.Field[] = [
    new arrow.Field('chunk_id', new arrow.Utf8(), false),
    new arrow.Field('call_id', new arrow.Utf8(), false),
    new arrow.Field('turn_from', new arrow.Int32(), false),
    new arrow.Field('turn_to', new arrow.Int32(), false),
    new arrow.Field('start_s', new arrow.Float64(), true),
    new arrow.Field('end_s', new arrow.Float64(), true),
    new arrow.Field('text', new arrow.Utf8(), false),
    new arrow.Field('search_text', new arrow.Utf8(), false),
    new arrow.Field('turns', new arrow.Utf8(), false),
    new arrow.Field('call_date', new arrow.Utf8(), true),
    new arrow.Field('started_at', new arrow.Utf8(), true),
    new arrow.Field('time_zone', new arrow.Utf8(), true),
    new arrow.Field('queue', new arrow.Utf8(), true),
    new arrow.Field('channel', new arrow.Utf8(), true),
    new arrow.Field('call_driver', new arrow.Utf8(), true),
    new arrow.Field('agent_id', new arrow.Utf8(), true),
    new arrow.Field('team', new arrow.Utf8(), true),
    new arrow.Field('resolved', new arrow.Int8(), true),
    new arrow.Field('escalated', new arrow.Int8(), true),
  ];
  if (vectorDimensions) {
    fields.push(
      new arrow.Field('vector', new arrow.FixedSizeList(vectorDimensions, new arrow.Field('item', new arrow.Float32(), true)), true),
    );
  }
  return new arrow.Schema(fields);
}
