import path from 'node:path';
import { serveHttp } from '../../../mcp-servers/transport/serve-http.ts';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { loadTask } from '../../../src/engine/load-task.ts';
import { runEpisode } from '../../../src/engine/run-episode.ts';
import { connectServer } from '../../../src/mcp/connect-server.ts';
import { cctuTask, scriptedModel, testServerFactory } from '../../unit/engine/fixtures.ts';

const callOptions = { timeoutMs: 5_000, maxBytes: 10_000 };

describe('MCP transports', () => {
  it('Streamable HTTP on 127.0.0.1: list, call, close', async () => {
    const factory = testServerFactory();
    const serving = await serveHttp(() => factory({ name: 'mock-tools', options: {} }, { task: cctuTask() }), { port: 0 });
    try {
      const connection = await connectServer('http-test', { kind: 'http', url: serving.url });
      expect(connection.tools.map((tool) => tool.name)).toContain('lookup');
      expect(await connection.callTool('lookup', { key: 'b' }, callOptions)).toMatchObject({ content: 'beta', isError: false });
      expect(await connection.callTool('lookup', { key: 'zz' }, callOptions)).toMatchObject({ content: 'no entry zz', isError: true });
      await connection.close();
    } finally {
      await serving.close();
    }
  });

  it('stdio: the demo episode against the mock-tools server as a child process', async () => {
    const { task, path: taskPath } = await loadTask('demo');
    const stdioTask = structuredClone(task);
    stdioTask.environment.servers = [
      {
        name: 'mock-tools',
        options: { command: process.execPath, args: ['--no-node-snapshot', '--import', 'tsx', path.join(REPO_ROOT, 'mcp-servers/mock-tools/bin.ts'), '--task', taskPath] },
      },
    ];
    const model = scriptedModel([
      { calls: [['artwork_locator', { title: 'The Starry Harbor' }]] },
      { calls: [['city_weather_forecast', { city: 'Lisbon', day: 'tomorrow' }]] },
      { say: 'In [[Lisbon]]: light rain.' },
    ]);
    const result = await runEpisode({ task: stdioTask, model });
    expect(result.status).toBe('completed');
    const results = result.events.filter((event) => event.type === 'tool-result');
    expect(results.map((event) => event.content).join(' ')).toMatch(/Museu do Cais.*light rain/);
  });
});
