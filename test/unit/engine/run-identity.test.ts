import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkIdentity, identityDifferences, readRunFile, taskSha256, writeRunFile, type RunFile, type RunIdentity } from '../../../src/engine/run-identity.ts';
import { cctuTask } from './fixtures.ts';

const identity: RunIdentity = { model: 'reference', judge: null, enforcement: 'block', execute: false, t2sModel: null, userModel: null, seed: 0, temperature: null, repeats: 1 };
const runFile = (over: Partial<RunIdentity> = {}): RunFile => ({
  format: 1,
  name: 'R',
  suite: null,
  identity: { ...identity, ...over },
  tasks: {},
  concurrency: 1,
  versions: {},
  startedAt: '2026-01-01T00:00:00.000Z',
});

describe('run identity', () => {
  it('names every field that differs, recorded → asked', () => {
    expect(identityDifferences(identity, identity)).toEqual([]);
    expect(identityDifferences(identity, { ...identity, model: 'openai:gpt-4o-mini', enforcement: 'observe', judge: 'anthropic:x', repeats: 3 })).toEqual([
      'model reference → openai:gpt-4o-mini',
      'judge none → anthropic:x',
      'enforcement block → observe',
      'repeats 1 → 3',
    ]);
  });

  it('the --t2s-model of executed plans is part of it: another is refused; a run.json from before it was recorded reads as none', async () => {
    expect(identityDifferences(identity, { ...identity, execute: true, t2sModel: 'openai:gpt-4o-mini' })).toEqual(['execute false → true', 't2sModel none → openai:gpt-4o-mini']);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'identity-t2s-'));
    const { t2sModel: _dropped, ...older } = identity;
    await writeFile(path.join(dir, 'run.json'), JSON.stringify({ ...runFile(), identity: older }));
    expect((await readRunFile(dir, 'R'))?.identity).toEqual(identity);
  });

  it('refuses another identity with one line saying what differs and what to do; a new folder is fine', () => {
    expect(() => checkIdentity(null, identity, 'runs/R')).not.toThrow();
    expect(() => checkIdentity(runFile(), identity, 'runs/R')).not.toThrow();
    expect(() => checkIdentity(runFile({ seed: 4 }), identity, 'runs/R')).toThrow(
      expect.objectContaining({ code: 'invalid-input', message: 'runs/R holds another run (seed 4 → 0): give --out <another dir>, or --fresh to start it over' }),
    );
  });

  it('hashes the task file content (sha-256), or the task JSON when there is no file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'identity-'));
    const file = path.join(dir, 't.json');
    await writeFile(file, '{"any": "bytes"}\n');
    const task = cctuTask();
    expect(taskSha256(task, file)).toBe(createHash('sha256').update('{"any": "bytes"}\n').digest('hex'));
    expect(taskSha256(task, path.join(dir, 'missing.json'))).toBe(createHash('sha256').update(JSON.stringify(task)).digest('hex'));
  });

  it('reads back what it wrote; refuses a folder of trajectories without run.json, and a run.json it cannot read', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'identity-file-'));
    expect(await readRunFile(dir, 'R')).toBeNull();
    await writeRunFile(dir, runFile());
    expect((await readRunFile(dir, 'R'))?.identity).toEqual(identity);
    expect(JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')).format).toBe(1);

    const legacy = await mkdtemp(path.join(os.tmpdir(), 'identity-legacy-'));
    await writeFile(path.join(legacy, 'demo.0.jsonl'), '{}\n');
    await expect(readRunFile(legacy, 'L')).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringContaining('L holds 1 trajectories but no run.json') });
    await writeFile(path.join(legacy, 'run.json'), JSON.stringify({ name: 'old', model: 'reference' }));
    await expect(readRunFile(legacy, 'L')).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringMatching(/^L\/run\.json: format: .*--fresh/) });
  });
});
