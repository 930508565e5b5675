import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CheckFile } from './cctu-sample.ts';

const CHECK_FILE = /^check_constraint_(\d+)\.(json|py)$/;

/**
 * The check files of one sample (check_code/<query id>/), by name: CCTU opens check_constraint_<i>.json or
 * check_constraint_<i>.py of constraint i and nothing else (core.py, _json_check_file / _py_check_file); other
 * files are not read. A missing folder is no files (the constraints that need one say which is missing).
 */
export async function readCheckCode(checkCodeDir: string, queryId: string, fail: (file: string, message: string) => never): Promise<{ files: Map<string, CheckFile>; others: string[] }> {
  const folder = path.join(checkCodeDir, queryId);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return { files: new Map(), others: [] };
  }
  const files = new Map<string, CheckFile>();
  const others: string[] = [];
  for (const name of names.sort()) {
    const match = CHECK_FILE.exec(name);
    const file = path.join(folder, name);
    if (match === null) {
      others.push(file);
      continue;
    }
    const text = await readFile(file, 'utf8');
    if (match[2] === 'py') {
      files.set(name, { kind: 'python', file, source: text });
      continue;
    }
    let config: unknown;
    try {
      config = JSON.parse(text);
    } catch (error) {
      fail(file, `is not JSON: ${(error as Error).message}`);
    }
    if (config === null || typeof config !== 'object' || Array.isArray(config)) fail(file, 'must hold a JSON object');
    files.set(name, { kind: 'json', file, config: config as Record<string, unknown> });
  }
  return { files, others };
}
