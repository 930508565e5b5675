import { Command, InvalidArgumentError } from 'commander';

function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 65535) throw new InvalidArgumentError(`--port must be an integer from 1 to 65535, got "${value}"`);
  return number;
}

interface ViewFlags {
  port?: number;
  open?: boolean;
  store: string;
}

/** `sandbox view`: the local web viewer over the results store, live while runs write. */
export function viewCommand(): Command {
  return new Command('view')
    .description('Open a local web viewer (127.0.0.1 only) of run folders: runs, plots, episodes, comparisons; updates live')
    .argument('[dirs...]', 'run folders, or folders of runs', ['runs'])
    .option('--port <n>', 'port to listen on (default: a free one)', port)
    .option('--open', 'open the viewer in the default browser')
    .option('--store <file>', 'the results store', 'runs/results.duckdb')
    .action(async (dirs: string[], flags: ViewFlags) => {
      const { openStore } = await import('../results/store.ts');
      const { startViewer } = await import('../viewer/server.ts');
      const store = await openStore(flags.store);
      const viewer = await startViewer({ store, dirs, port: flags.port, pollMs: 1500 });
      const { runs, unreadable, pending } = viewer.indexed;
      process.stdout.write(`${runs} runs indexed (${viewer.indexed.seconds.toFixed(2)} s)${unreadable.length > 0 ? `, ${unreadable.length} unreadable files` : ''}${pending > 0 ? `; ${pending} more episodes being indexed (pages fill in as they are)` : ''}\n`);
      process.stdout.write(`viewer: ${viewer.url}  (Ctrl-C to stop)\n`);
      if (flags.open) {
        const { spawn } = await import('node:child_process');
        const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
        spawn(opener, [viewer.url], { stdio: 'ignore', detached: true }).on('error', () => process.stderr.write(`cannot start ${opener}: open ${viewer.url} yourself\n`)).unref();
      }
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await viewer.close();
      store.close();
    });
}
