import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyConfig, loadConfig, loadEnvFiles } from '../../../src/cli/config.ts';
import { UsageError } from '../../../src/cli/usage-error.ts';
import { createProgram } from '../../../src/cli/main.ts';

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'config-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

/** The options `run` ends up with after the config and then these arguments. */
async function runOptions(config: object, args: string[] = []): Promise<Record<string, unknown>> {
  const dir = await folder({ 'sandbox.config.json': JSON.stringify(config) });
  const program = await createProgram();
  const run = program.commands.find((command) => command.name() === 'run')!;
  run.action(() => undefined);
  const loaded = loadConfig(program, undefined, dir);
  if (loaded) applyConfig(program, loaded);
  await program.parseAsync(['run', '--suite', 'episodes/demo', ...args], { from: 'user' });
  return run.opts();
}

describe('config file', () => {
  it('supplies any flag default: top level for every command, a command section over it, the command line over both', async () => {
    expect(await runOptions({ model: 'reference', concurrency: 8 })).toMatchObject({ model: 'reference', concurrency: 8 });
    expect(await runOptions({ model: 'reference', concurrency: 8, run: { concurrency: 2, 'keep-errors': true } })).toMatchObject({ concurrency: 2, keepErrors: true });
    expect(await runOptions({ model: 'reference', run: { concurrency: 2 } }, ['--concurrency', '3'])).toMatchObject({ concurrency: 3 });
  });

  it('names an unknown key or a bad value in one line (a usage error)', async () => {
    await expect(runOptions({ modle: 'x' })).rejects.toThrow(UsageError);
    await expect(runOptions({ modle: 'x' })).rejects.toThrow(/sandbox\.config\.json: unknown key "modle"/);
    await expect(runOptions({ run: { 'keep-erors': true } })).rejects.toThrow(/unknown key "keep-erors" in "run"/);
    await expect(runOptions({ model: 'reference', concurrency: 0 })).rejects.toThrow(/concurrency: --concurrency must be a positive integer/);
    await expect(runOptions({ model: 'reference', enforcement: 'sometimes' })).rejects.toThrow(/enforcement: Allowed choices are block, observe, off/);
    await expect(runOptions({ model: 'reference', fresh: 'yes' })).rejects.toThrow(/fresh: expected true or false/);
  });

  it('reads YAML, --config wins over the working directory, and two config files are refused', async () => {
    const program = await createProgram();
    const dir = await folder({ 'sandbox.config.yaml': 'run:\n  repeats: 3\n', 'other.yml': 'model: reference\n' });
    expect(loadConfig(program, undefined, dir)?.config).toEqual({ run: { repeats: 3 } });
    expect(loadConfig(program, path.join(dir, 'other.yml'), dir)?.config).toEqual({ model: 'reference' });
    const both = await folder({ 'sandbox.config.yaml': '{}', 'sandbox.config.json': '{}' });
    expect(() => loadConfig(program, undefined, both)).toThrow(/are both in/);
    expect(() => loadConfig(program, path.join(dir, 'missing.json'), dir)).toThrow(expect.objectContaining({ code: 'not-found' }));
  });
});

describe('env files', () => {
  it('loads --env-file then .env, never overriding a variable already set', async () => {
    const dir = await folder({ '.env': 'I15_A=from-dotenv\nI15_B=from-dotenv\nI15_C=from-dotenv\n', 'keys.env': 'I15_B=from-env-file\n' });
    process.env.I15_A = 'already-set';
    try {
      loadEnvFiles(path.join(dir, 'keys.env'), dir);
      expect([process.env.I15_A, process.env.I15_B, process.env.I15_C]).toEqual(['already-set', 'from-env-file', 'from-dotenv']);
      expect(() => loadEnvFiles(path.join(dir, 'missing.env'), dir)).toThrow(expect.objectContaining({ code: 'not-found' }));
    } finally {
      delete process.env.I15_A;
      delete process.env.I15_B;
      delete process.env.I15_C;
    }
  });
});
