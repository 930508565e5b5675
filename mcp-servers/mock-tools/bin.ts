// The mock-tools MCP server as a process, serving one task's tools over its world: stdio by default,
// Streamable HTTP with --http.
//   node --no-node-snapshot --import tsx mcp-servers/mock-tools/bin.ts --task episodes/cctu/<id>.json [--http 127.0.0.1:3000 [--token T]] [--timeout-ms N]
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CctuTaskSchema } from '../../src/schemas/cctu-task.ts';
import { parseHttpAddress, serveHttp, serveStdio } from '../transport/index.ts';
import { createServer } from './create-server.ts';
import { worldForTask } from './world-for-task.ts';

const usage = 'usage: mock-tools --task <task.json> [--http HOST:PORT] [--token T] [--timeout-ms N]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { task: { type: 'string' }, http: { type: 'string' }, token: { type: 'string' }, 'timeout-ms': { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help || !values.task) {
    process.stderr.write(`${usage}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const parsed = CctuTaskSchema.safeParse(JSON.parse(await readFile(values.task, 'utf8')));
  if (!parsed.success) {
    throw new Error(`invalid task ${values.task}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  }
  const task = parsed.data;
  const world = await worldForTask(task);
  const timeoutMs = values['timeout-ms'] ? Number(values['timeout-ms']) : task.limits.toolTimeoutMs;
  const make = () => createServer({ tools: task.tools, world, timeoutMs });
  if (!values.http) {
    await serveStdio(make());
    return;
  }
  const serving = await serveHttp(make, { ...parseHttpAddress(values.http), token: values.token });
  process.stderr.write(`mock-tools server: ${serving.url}${values.token ? ' (bearer token required)' : ''}\n`);
  const stop = () => void serving.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`mock-tools server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
