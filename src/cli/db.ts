import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { DATABASES, databasePath } from '../../databases/index.ts';
import { SandboxError } from '../sandbox-error.ts';

const integer = (name: string) => (value: string) => {
  const parsed = Number(value.replaceAll('_', ''));
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
  return parsed;
};

/** `sandbox db build <name>` and `sandbox db list`: the seeded database generators. */
export function dbCommand(): Command {
  const command = new Command('db').description('Build the seeded databases the SQL and transcripts servers serve');
  command
    .command('list')
    .description('List the database generators')
    .action(() => {
      for (const [name, generator] of Object.entries(DATABASES)) process.stdout.write(`${name.padEnd(18)} ${generator.description}\n`);
    });
  command
    .command('build')
    .description('Build a database (replaces the file); the default size takes seconds')
    .argument('<name>', `generator: ${Object.keys(DATABASES).join(', ')}`)
    .option('--calls <n>', 'size: number of calls', integer('--calls'))
    .option('--seed <s>', 'random seed', integer('--seed'))
    .option('--out <path>', 'output file (default: the path ensureDatabase uses under the data directory)')
    .option('--no-index', 'contact-center: skip the transcript index (the transcripts server builds it on first use)')
    .action(async (name: string, options: { calls?: number; seed?: number; out?: string; index: boolean }) => {
      const generator = DATABASES[name];
      if (!generator) throw new SandboxError('not-found', `no database generator named "${name}" (known: ${Object.keys(DATABASES).join(', ')})`);
      const out = path.resolve(options.out ?? databasePath(name, { calls: options.calls, seed: options.seed }));
      await mkdir(path.dirname(out), { recursive: true });
      const started = performance.now();
      const result = (await generator.build(out, { calls: options.calls, seed: options.seed })) as { rows?: Record<string, number> } | undefined;
      const rows = result?.rows ? ` (${Object.entries(result.rows).map(([table, count]) => `${table} ${count}`).join(', ')})` : '';
      process.stdout.write(`built ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s${rows}\n`);
      if (name === 'contact-center' && options.index) {
        // The transcripts server's index is built with the database (embeddings too when SANDBOX_EMBEDDINGS_* is set).
        const transcripts = await import('../../mcp-servers/transcripts/index.ts');
        const indexPath = transcripts.transcriptIndexPath(out);
        const meta = await transcripts.buildTranscriptIndex({ dbPath: out, indexPath, embeddings: transcripts.embeddingsFromEnv() });
        process.stdout.write(`built ${indexPath} in ${meta.buildSeconds.toFixed(1)} s (${meta.chunks} chunks of ${meta.calls} calls${meta.embeddings ? `, ${meta.embeddings.model} embeddings` : ''})\n`);
      }
    });
  return command;
}
