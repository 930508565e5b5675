import { arrow, type Arrow } from './apache-arrow.ts';

/** The most UTF-8 bytes one Utf8 column of a batch may hold (V8's string limit, 2^29 - 24). */
export const MAX_UTF8_COLUMN_BYTES = 2 ** 29 - 24;

/** A column's values as read from DuckDB: strings for Utf8 fields, numbers for numeric ones, typed arrays for vectors. */
export type ColumnValues = ReadonlyArray<string | number | Float32Array | null | undefined>;

/** The validity bitmap of `values` (bit set = present) and how many are null; no bitmap when none is. */
function validity(values: ColumnValues): { nullBitmap: Uint8Array | undefined; nullCount: number } {
  let nullCount = 0;
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  values.forEach((value, i) => {
    if (value === null || value === undefined) nullCount++;
    else bitmap[i >> 3]! |= 1 << (i & 7);
  });
  return { nullBitmap: nullCount === 0 ? undefined : bitmap, nullCount };
}

/**
 * A Utf8 column built in one pass: the strings are joined and encoded to UTF-8 at once, the offsets taken from each
 * string's byte length. apache-arrow's builder encodes value by value (a TextEncoder call and a small array each),
 * which with the garbage it left was most of the JavaScript time of an index build.
 */
function utf8Data(type: Arrow.Utf8, values: ColumnValues): Arrow.Data<Arrow.Utf8> {
  const { nullBitmap, nullCount } = validity(values);
  const valueOffsets = new Int32Array(values.length + 1);
  const strings = values.map((value) => (value === null || value === undefined ? '' : String(value)));
  let offset = 0;
  strings.forEach((value, i) => {
    offset += Buffer.byteLength(value, 'utf8');
    valueOffsets[i + 1] = offset;
  });
  // One string of the batch's text (V8's longest string is 2^29 - 24 characters; Utf8 offsets are 32-bit): a batch
  // past it is refused by name, not cut or wrapped. The index build flushes long before (MAX_BATCH_TEXT_CHARS).
  if (offset > MAX_UTF8_COLUMN_BYTES) throw new RangeError(`a Utf8 column of ${values.length} values holds ${offset} bytes of text, more than one batch can (${MAX_UTF8_COLUMN_BYTES})`);
  const data = Buffer.from(strings.join(''), 'utf8');
  return arrow.makeData({ type, length: values.length, nullCount, nullBitmap, valueOffsets, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
}

function numericData(type: Arrow.Int32 | Arrow.Int8 | Arrow.Float64, values: ColumnValues): Arrow.Data {
  const { nullBitmap, nullCount } = validity(values);
  const data = new type.ArrayType(values.length);
  values.forEach((value, i) => (data[i] = value === null || value === undefined ? 0 : Number(value)));
  return arrow.makeData({ type, length: values.length, nullCount, nullBitmap, data } as Parameters<typeof arrow.makeData>[0]);
}

/** One column's Arrow data for `field`: Utf8, Int8/Int32/Float64 by hand; other types through apache-arrow. */
function columnData(field: Arrow.Field, values: ColumnValues): Arrow.Data {
  const type = field.type as Arrow.DataType;
  if (arrow.DataType.isUtf8(type)) return utf8Data(type, values);
  if (type instanceof arrow.Int32 || type instanceof arrow.Int8 || type instanceof arrow.Float64) return numericData(type, values);
  return arrow.vectorFromArray(values as unknown[], type).data[0]!;
}

/** An Arrow table of `schema` from one array of values per field (all of one length), in the schema's order. */
export function tableFromColumns(schema: Arrow.Schema, columns: Record<string, ColumnValues>): Arrow.Table {
  const length = columns[schema.fields[0]!.name]?.length ?? 0;
  const children = schema.fields.map((field) => {
    const values = columns[field.name];
    if (!values || values.length !== length) throw new Error(`column ${field.name}: ${values?.length ?? 'no'} values for ${length} rows`);
    return columnData(field, values);
  });
  const batch = new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(schema.fields), length, nullCount: 0, children }));
  return new arrow.Table(schema, [batch]);
}
