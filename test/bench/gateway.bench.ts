// `npm run bench -- gateway`: the stdio gateway as a desktop client starts it (the command line `sandbox mcp-config
// --task demo` prints), cold: a new process per round, 5 rounds, medians.
// - initialize_ms: from spawning the command to the `initialize` answer on stdout (what a client waits for before its
//   first request; issue 36's target 500 ms), and initialize_cpu_ms: the CPU the process had used by then (/proc).
// - first_tools_list_ms: from spawning to the answer of the tools/list sent right after the handshake (the task's
//   session, its servers and validator, opened after the handshake).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serverCommandLine } from '../../src/cli/mcp-config.ts';
import { procStatCpuMs } from './proc-cpu.ts';

interface Round {
  initialize: number;
  initializeCpu: number;
  toolsList: number;
}

async function round(out: string): Promise<Round> {
  const [command, ...args] = serverCommandLine({ task: 'demo' });
  const started = performance.now();
  const child = spawn(command!, [...args.slice(0, -1), out], { stdio: ['pipe', 'pipe', 'ignore'] });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  return new Promise<Round>((resolve, reject) => {
    const result: Partial<Round> = {};
    let buffer = '';
    child.once('exit', (code) => reject(new Error(`the gateway exited ${code}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end)) as { id?: number };
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          result.initialize = performance.now() - started;
          result.initializeCpu = procStatCpuMs(`/proc/${child.pid}/stat`);
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          result.toolsList = performance.now() - started;
          child.removeAllListeners('exit');
          child.once('exit', () => resolve(result as Round));
          child.stdin.end();
        }
      }
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function run(): Promise<Record<string, number>> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'gateway-bench-'));
  try {
    const rounds: Round[] = [];
    for (let index = 0; index < 5; index++) rounds.push(await round(out));
    return {
      initialize_ms: median(rounds.map((r) => r.initialize)),
      initialize_cpu_ms: median(rounds.map((r) => r.initializeCpu)),
      first_tools_list_ms: median(rounds.map((r) => r.toolsList)),
      load_1m: os.loadavg()[0]!,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
