/**
 * How many queries one SQL server's query process runs side by side (its DuckDB connections). The server sends at
 * most this many at once, so a query's time limit starts when a connection is free for it, never while it waits.
 */
export const QUERY_SLOTS = 4;
