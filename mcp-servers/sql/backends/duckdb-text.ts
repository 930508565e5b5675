import duckdb from '@duckdb/node-bindings';
import { DuckDBVarCharVector, type DuckDBConnection, type DuckDBVector } from '@duckdb/node-api';

/** A VARCHAR vector as @duckdb/node-api keeps it: DuckDB's 16-byte `duckdb_string_t`s, and which rows are NULL. */
interface VarCharLayout {
  dataView: DataView;
  validity: { itemValid(row: number): boolean };
}

const decoder = new TextDecoder();

/**
 * Reads a VARCHAR column of a result chunk decoding no more of a string than a cell cut to `maxChars` shows: at most
 * 4 × (maxChars + 1) bytes (enough for maxChars + 1 UTF-16 units whatever the characters), so a 500 MB string never
 * becomes a JavaScript string. This is what lets a query's text columns be cut without wrapping the query in a
 * second statement that DuckDB parses and plans again. Undefined for any other vector (the caller reads it whole).
 * `duckdb_string_t`: a length (uint32), then up to 12 bytes inline, or 4 prefix bytes and a pointer.
 */
export function textReader(vector: DuckDBVector, maxChars: number): ((row: number) => string | null) | undefined {
  if (!(vector instanceof DuckDBVarCharVector)) return undefined;
  const { dataView, validity } = vector as unknown as VarCharLayout;
  const maxBytes = (maxChars + 1) * 4;
  return (row) => {
    if (!validity.itemValid(row)) return null;
    const offset = row * 16;
    const length = dataView.getUint32(offset, true);
    if (length <= 12) return decoder.decode(new Uint8Array(dataView.buffer, dataView.byteOffset + offset + 4, length));
    return decoder.decode(duckdb.get_data_from_pointer(dataView.buffer as ArrayBuffer, dataView.byteOffset + offset + 8, Math.min(length, maxBytes)));
  };
}

/**
 * Whether this driver lays VARCHAR vectors out as `textReader` reads them (checked once per database opened, on
 * inline, NULL and out-of-line strings): where it does not (another driver version), text is cut inside DuckDB by
 * wrapping the query, as for nested values.
 */
export async function textReaderWorks(connection: DuckDBConnection): Promise<boolean> {
  try {
    const long = `${'é'.repeat(40)}x`;
    const result = await connection.stream(`SELECT * FROM (VALUES ('short'), (NULL), ('${long}')) AS probe(text)`);
    const chunk = await result.fetchChunk();
    const vector = chunk?.getColumnVector(0);
    const read = vector && textReader(vector, 1_000);
    const layout = vector as unknown as Partial<VarCharLayout> | undefined;
    if (!read || !(layout?.dataView instanceof DataView) || typeof layout.validity?.itemValid !== 'function') return false;
    const cut = textReader(vector!, 5)!(2);
    return read(0) === 'short' && read(1) === null && read(2) === long && cut !== null && cut.startsWith('éééééé');
  } catch {
    return false;
  }
}
