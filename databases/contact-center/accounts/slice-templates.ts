import { readAccountSlice } from './read-slice.ts';
import { sliceTemplate } from './session-copy.ts';

/** A customer's slice ready to copy: the serialized template and the facts a session needs. */
export interface SliceTemplate {
  customerId: string;
  region: string;
  template: Buffer;
}

const templates = new Map<string, Promise<SliceTemplate>>();

/**
 * The template of a customer's slice of a built database, read once per process (DuckDB is opened only then): every
 * later session, repeat and grading replay of the same customer copies the same bytes. A failed read is retried.
 */
export function sliceTemplateOf(dbPath: string, customerId: string): Promise<SliceTemplate> {
  const key = `${dbPath}\u0000${customerId}`;
  let loaded = templates.get(key);
  if (!loaded) {
    loaded = readAccountSlice(dbPath, customerId).then((slice) => ({ customerId, region: slice.region, template: sliceTemplate(slice) }));
    loaded.catch(() => templates.delete(key));
    templates.set(key, loaded);
  }
  return loaded;
}
