import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CheckFile } from './cctu-sample.ts';

const CHECK_FILE = /^check_constraint_(\d+)\.(json|py)$/;

/** The check files of one query (`check_code/<query_id>/`), by constraint index; a missing folder is no files. */
export async function readCheckCode(checkCodeDir: string, queryId: string, fail: (file: string, message: string) => never): Promise<Map<number, CheckFile[]>> {
  const folder = path.join(checkCodeDir, queryId);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return new Map();
  }
  const byIndex = new Map<number, CheckFile[]>();
  for (const name of names.sort()) {
    const match = CHECK_FILE.exec(name);
    const file = path.join(folder, name);
    if (match === null) fail(file, 'is not a check_constraint_<i>.json or .py file');
    const text = await readFile(file, 'utf8');
    let check: CheckFile;
    if (match[2] === 'json') {
      let config: unknown;
      try {
        config = JSON.parse(text);
      } catch (error) {
        fail(file, `is not JSON: ${(error as Error).message}`);
      }
      if (config === null || typeof config !== 'object' || Array.isArray(config)) fail(file, 'must hold a JSON object');
      check = { kind: 'json', file, config: config as Record<string, unknown> };
    } else {
      check = { kind: 'python', file, source: text };
    }
    const index = Number(match[1]);
    byIndex.set(index, [...(byIndex.get(index) ?? []), check]);
  }
  return byIndex;
}

/**
 * The `.py` file holding the validator of response constraint `index`: its own check_constraint_<index>.py, else the
 * file whose docstring lists it (CCTU writes one file for a sample's non-length response constraints and lists
 * them as `- idx <i>: …`), else the folder's only `.py` file.
 */
export function pythonFileFor(index: number, byIndex: Map<number, CheckFile[]>): CheckFile | undefined {
  const own = byIndex.get(index)?.find((check) => check.kind === 'python');
  if (own !== undefined) return own;
  const python = [...byIndex.values()].flat().filter((check) => check.kind === 'python');
  const listing = python.filter((check) => check.kind === 'python' && new RegExp(`^\\s*-\\s*idx\\s+${index}\\s*:`, 'm').test(check.source));
  if (listing.length === 1) return listing[0];
  return python.length === 1 ? python[0] : undefined;
}
