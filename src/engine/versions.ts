import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../data-dir.ts';

/** Packages whose versions change what an episode does; recorded in `episode-start`. */
const KEY_PACKAGES = ['@modelcontextprotocol/sdk', '@langchain/langgraph', '@langchain/core', 'isolated-vm', '@duckdb/node-api', '@lancedb/lancedb', 'zod'];

let cached: Record<string, string> | undefined;

/** Versions of agent-sandbox, Node and the key packages (read once per process). */
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
  cached = versions;
  return versions;
}
