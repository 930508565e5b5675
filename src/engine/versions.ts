import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../data-dir.ts';

/** Packages whose versions change what an episode does; recorded in `episode-start`. */
const KEY_PACKAGES = ['@modelcontextprotocol/sdk', '@langchain/langgraph', '@langchain/core', 'isolated-vm', '@duckdb/node-api', '@lancedb/lancedb', 'zod'];

/**
 * The parts of this repository that decide a score, each versioned by the content of its sources: `constraints`
 * (the constraint code run in the isolate), `validator` (the host that runs it), `grader` (the scoring rules).
 * A content hash cannot be forgotten the way a hand-bumped number can; `sandbox grade` warns when one differs
 * from what a trajectory recorded.
 */
export const COMPONENT_FOLDERS = { constraints: 'constraints', validator: 'src/validator', grader: 'src/graders' } as const;
export type Component = keyof typeof COMPONENT_FOLDERS;

let cached: Record<string, string> | undefined;

/** The first 12 hex digits of the sha-256 over a folder's source files (names and contents, sorted by name). */
function folderVersion(folder: string): string {
  const root = path.join(REPO_ROOT, folder);
  const hash = createHash('sha256');
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(path.join(root, file))).update('\0');
  return hash.digest('hex').slice(0, 12);
}

/** Versions of agent-sandbox, Node, the key packages and the scoring components (read once per process). */
export function packageVersions(): Record<string, string> {
  if (cached) return cached;
  const versions: Record<string, string> = { node: process.version };
  const read = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
  versions['agent-sandbox'] = read(path.join(REPO_ROOT, 'package.json')) ?? 'unknown';
  for (const name of KEY_PACKAGES) {
    try {
      versions[name] = read(path.join(REPO_ROOT, 'node_modules', name, 'package.json')) ?? 'unknown';
    } catch {
      versions[name] = 'not installed';
    }
  }
  for (const [component, folder] of Object.entries(COMPONENT_FOLDERS)) versions[component] = folderVersion(folder);
  cached = versions;
  return versions;
}
