// stdio entry of the mock-tools server:
//   node --no-node-snapshot --import tsx mcp-servers/mock-tools/bin.ts --task episodes/cctu/<id>.json
// Serves the task's tools over the world its mock-tools server options name (see load-world.ts).
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CctuTaskSchema } from '../../src/schemas/cctu-task.ts';
import { createServer } from './create-server.ts';
import { worldForTask } from './world-for-task.ts';

const { values } = parseArgs({ options: { task: { type: 'string' }, 'timeout-ms': { type: 'string' } } });
if (!values.task) {
  process.stderr.write('usage: mock-tools --task <task.json> [--timeout-ms N]\n');
  process.exit(2);
}
const parsed = CctuTaskSchema.safeParse(JSON.parse(await readFile(values.task, 'utf8')));
if (!parsed.success) {
  process.stderr.write(`mock-tools: invalid task ${values.task}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}\n`);
  process.exit(3);
}
const server = createServer({
  tools: parsed.data.tools,
  world: await worldForTask(parsed.data),
  timeoutMs: values['timeout-ms'] ? Number(values['timeout-ms']) : undefined,
});
await server.connect(new StdioServerTransport());
