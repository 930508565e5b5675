import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { REPO_ROOT } from '../data-dir.ts';
import { nearestName } from '../nearest-name.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { Task } from '../schemas/task.ts';
import { TaskFileSchema } from '../styles/registry.ts';
import { parseJsonWithSchema } from '../schemas/json-with-schema.ts';

/** A task and where it came from. */
export interface LoadedTask {
  task: Task;
  /** Absolute path of the task file. */
  path: string;
}

/** Where task ids are looked up. */
export const EPISODES_DIR = path.join(REPO_ROOT, 'episodes');

/** Parses task JSON text; a bad file throws `invalid-task` naming the file and the field. */
/**
 * A task's file paths made absolute: a relative `dbPath` of a server resolves against the task file's folder, so a
 * suite written beside its database (`sandbox ddr scaffold`) runs from any working directory.
 */
function resolveTaskPaths(task: Task, taskFile: string): Task {
  const servers = task.environment.servers.map((server) => {
    const dbPath = server.options.dbPath;
    // A URL (postgres://…) is no file path.
    if (typeof dbPath !== 'string' || dbPath === '' || path.isAbsolute(dbPath) || /^[a-z][a-z\d+.-]*:\/\//iu.test(dbPath)) return server;
    return { ...server, options: { ...server.options, dbPath: path.resolve(path.dirname(taskFile), dbPath) } };
  });
  return { ...task, environment: { ...task.environment, servers } };
}

export function parseTask(text: string, file: string, absoluteFile: string = path.resolve(file)): Task {
  return resolveTaskPaths(parseJsonWithSchema(text, TaskFileSchema, file, { code: 'invalid-task' }), absoluteFile);
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * Every `*.json` file under a directory, sorted, except inside generator folders (`episodes/<style>-generator/`):
 * those hold generator code and data (e.g. a recorded baseline), not tasks.
 */
async function jsonFilesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const inGenerator = (folder: string) => path.relative(directory, folder).split(path.sep).some((part) => part.endsWith('-generator'));
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json') && !inGenerator(entry.parentPath))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Loads one task: `idOrPath` is a path to a task file, or a task id looked up as `episodes/**\/<id>.json`.
 * Throws `not-found` when there is no such task, `invalid-task` (one line: file, JSON path, expectation) when it does not parse.
 */
export async function loadTask(idOrPath: string): Promise<LoadedTask> {
  const asPath = path.resolve(idOrPath);
  if (await isFile(asPath)) return taskFromText(await readFile(asPath, 'utf8'), asPath);
  if (idOrPath.includes('/') || idOrPath.endsWith('.json')) throw new SandboxError('not-found', `no task file ${idOrPath}`);
  const matches = (await jsonFilesUnder(EPISODES_DIR)).filter((file) => path.basename(file) === `${idOrPath}.json`);
  if (matches.length === 0) {
    const nearest = nearestName(idOrPath, (await jsonFilesUnder(EPISODES_DIR)).map((file) => path.basename(file, '.json')));
    throw new SandboxError('not-found', `no task "${idOrPath}" under ${displayPath(EPISODES_DIR)}${nearest ? ` (did you mean "${nearest}"?)` : ''} (give an id or a path to a task file)`);
  }
  if (matches.length > 1) {
    throw new SandboxError('invalid-input', `task id "${idOrPath}" is ambiguous: ${matches.map(displayPath).join(', ')}; give a path`);
  }
  const file = matches[0]!;
  return taskFromText(await readFile(file, 'utf8'), file);
}

/** A task parsed from its file's text, as `loadTask` returns it (`file` absolute). */
export function taskFromText(text: string, file: string): LoadedTask {
  return { task: parseTask(text, displayPath(file), file), path: file };
}

/**
 * Loads a suite: a directory (every task file under it), a single task file, or a glob (`episodes/cctu/cctu2-mh-00[1-3].json`).
 * Tasks are sorted by path; duplicate ids are an error because trajectories are named by id.
 */
export async function loadSuite(dirOrGlob: string): Promise<LoadedTask[]> {
  const files = await suiteFiles(dirOrGlob);
  if (files.length === 0) throw new SandboxError('not-found', `no task files match ${dirOrGlob}`);
  const tasks: LoadedTask[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const task = parseTask(await readFile(file, 'utf8'), displayPath(file), path.resolve(file));
    const earlier = seen.get(task.id);
    if (earlier) throw new SandboxError('invalid-task', `${displayPath(file)}: id "${task.id}" is also the id of ${earlier}`);
    seen.set(task.id, displayPath(file));
    tasks.push({ task, path: file });
  }
  return tasks;
}

async function suiteFiles(dirOrGlob: string): Promise<string[]> {
  const resolved = path.resolve(dirOrGlob);
  try {
    const info = await stat(resolved);
    if (info.isDirectory()) return jsonFilesUnder(resolved);
    if (info.isFile()) return [resolved];
  } catch {
    // not a plain path: try it as a glob
  }
  // A glob, in tinyglobby's (picomatch's) full syntax: `*`, `**`, `?`, `[1-3]`, `{a,b}`, extglobs.
  const inGenerator = (file: string) => path.relative(EPISODES_DIR, file).split(path.sep).some((part) => part.endsWith('-generator'));
  const files = await glob(dirOrGlob, { cwd: process.cwd(), absolute: true, onlyFiles: true });
  return files.filter((file) => file.endsWith('.json') && !inGenerator(file)).map((file) => path.resolve(file)).sort();
}

/** A path as shown to the user: relative to the current directory when inside it. */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** A task path as recorded in a trajectory: relative to the repository when inside it, so runs move between clones. */
export function recordedTaskPath(file: string): string {
  const relative = path.relative(REPO_ROOT, path.resolve(file));
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : path.resolve(file);
}

/** The file a recorded task path names (see recordedTaskPath). */
export { resolveRecordedTaskPath } from '../data-dir.ts';
