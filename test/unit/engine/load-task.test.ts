import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite, loadTask } from '../../../src/engine/load-task.ts';
import { SandboxError } from '../../../src/sandbox-error.ts';

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'load-task-'));
}

async function demoJson(): Promise<Record<string, unknown>> {
  const { path: file } = await loadTask('demo');
  const { readFile } = await import('node:fs/promises');
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
}

async function errorOf(promise: Promise<unknown>): Promise<SandboxError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SandboxError) return error;
    throw error;
  }
  throw new Error('expected a SandboxError');
}

describe('loadTask', () => {
  it('finds the built-in demo task by id', async () => {
    const { task, path: file } = await loadTask('demo');
    expect(task.id).toBe('demo');
    expect(task.style).toBe('cctu');
    expect(file.endsWith(path.join('episodes', 'demo', 'demo.json'))).toBe(true);
  });

  it('names the file, the JSON path of the bad field and what was expected, on one line', async () => {
    const directory = await tempDir();
    const json = await demoJson();
    (json.constraints as Array<{ params: Record<string, unknown> }>)[1]!.params.max = 'four';
    const file = path.join(directory, 'bad.json');
    await writeFile(file, JSON.stringify(json));
    const error = await errorOf(loadTask(file));
    expect(error.code).toBe('invalid-task');
    expect(error.message).toContain('bad.json');
    expect(error.message).toContain('constraints[1].params.max');
    expect(error.message).toMatch(/expected number/);
    expect(error.message).not.toContain('\n');
  });

  it('reports invalid JSON and unknown ids with their own codes', async () => {
    const directory = await tempDir();
    const file = path.join(directory, 'broken.json');
    await writeFile(file, '{"id": ');
    const broken = await errorOf(loadTask(file));
    expect(broken.code).toBe('invalid-task');
    expect(broken.message).toMatch(/broken\.json: not valid JSON/);
    expect((await errorOf(loadTask('no-such-task-anywhere'))).code).toBe('not-found');
  });
});

describe('loadSuite', () => {
  it('loads a directory or a glob, and rejects duplicate ids', async () => {
    const directory = await tempDir();
    const json = await demoJson();
    await writeFile(path.join(directory, 'one.json'), JSON.stringify({ ...json, id: 'one' }));
    await writeFile(path.join(directory, 'two.json'), JSON.stringify({ ...json, id: 'two' }));
    expect((await loadSuite(directory)).map((loaded) => loaded.task.id)).toEqual(['one', 'two']);
    expect((await loadSuite(path.join(directory, 't*.json'))).map((loaded) => loaded.task.id)).toEqual(['two']);
    await writeFile(path.join(directory, 'three.json'), JSON.stringify({ ...json, id: 'one' }));
    const error = await errorOf(loadSuite(directory));
    expect(error.code).toBe('invalid-task');
    expect(error.message).toMatch(/id "one" is also the id of/);
  });

  it('skips the JSON files of generator folders, which are not tasks', async () => {
    const directory = await tempDir();
    await writeFile(path.join(directory, 'one.json'), JSON.stringify({ ...(await demoJson()), id: 'one' }));
    await mkdir(path.join(directory, 'cctu-generator'), { recursive: true });
    await writeFile(path.join(directory, 'cctu-generator', 'baseline.json'), JSON.stringify({ scores: [] }));
    expect((await loadSuite(directory)).map((loaded) => loaded.task.id)).toEqual(['one']);
  });
});
