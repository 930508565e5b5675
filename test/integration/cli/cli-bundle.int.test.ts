// bin/cli-bundle.js: the CLI runs from its esbuild bundle only while every file it was built from is unchanged. On a
// temporary copy of the repository (its node_modules a link to this one's, so the copy's bundle is a checkout's own):
// a bundle whose code was altered after the build runs as it is (so it is the bundle that runs, not the sources),
// and once a source differs from what was bundled — edited, or its recorded hash not the file's — the sources' code
// runs, never the bundle's. The packages bundled with our code are inputs too: the copy's commander is a copy of its
// own (every other package a link), and its help text edited in node_modules is what runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

/** The `serve` command's description, as src/cli/serve.ts writes it (what `sandbox serve --help` prints first). */
const DESCRIPTION = 'Serve a task (or a suite) over MCP with its constraints enforced';
let copy: string;
let pointerFile: string;

interface Pointer {
  dir: string;
  inputs: Record<string, { sha256: string | null; stat: string | null }>;
}

const pointer = () => JSON.parse(readFileSync(pointerFile, 'utf8')) as Pointer;
const bundleDir = () => path.join(path.dirname(pointerFile), pointer().dir);

function serveHelp(env: Record<string, string> = {}): string {
  const result = spawnSync(process.execPath, ['--no-node-snapshot', path.join(copy, 'bin/sandbox.js'), 'serve', '--help'], { cwd: copy, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

/** Changes the description in the bundle's code (not in the sources): what a stale bundle would print. */
function alterBundle(from: string, to: string): void {
  const dir = bundleDir();
  const chunks = readdirSync(dir).filter((file) => file.endsWith('.js') && readFileSync(path.join(dir, file), 'utf8').includes(from));
  expect(chunks).toHaveLength(1);
  const file = path.join(dir, chunks[0]!);
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
}

beforeAll(async () => {
  copy = mkdtempSync(path.join(tmpdir(), 'sandbox-bundle-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    // the task suites and the tests are not part of the command
    if ((file.startsWith('episodes/') && !file.split('/')[1]!.endsWith('-generator')) || file.startsWith('test/')) continue;
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    try {
      cpSync(path.join(REPO_ROOT, file), path.join(copy, file));
    } catch {
      // a file deleted in the working tree
    }
  }
  // node_modules: a link per package (not the folder: the bundle cache inside it is the copy's), commander a copy
  mkdirSync(path.join(copy, 'node_modules'));
  for (const entry of readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
    if (entry === '.cache') continue;
    const from = realpathSync(path.join(REPO_ROOT, 'node_modules', entry));
    if (entry === 'commander') cpSync(from, path.join(copy, 'node_modules', entry), { recursive: true });
    else symlinkSync(from, path.join(copy, 'node_modules', entry));
  }
  // the copy's own module: its pointer file is the copy's
  ({ POINTER: pointerFile } = (await import(pathToFileURL(path.join(copy, 'bin/cli-bundle.js')).href)) as { POINTER: string });
}, 120_000);

afterAll(() => {
  if (pointerFile) {
    try {
      rmSync(bundleDir(), { recursive: true, force: true });
    } catch {
      // never built
    }
    rmSync(pointerFile, { force: true });
  }
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('the CLI bundle (bin/cli-bundle.js)', { timeout: 300_000 }, () => {
  it('is built at the first start and is what later starts run', () => {
    expect(serveHelp()).toContain(DESCRIPTION);
    expect(pointer().inputs['src/cli/serve.ts']).toBeDefined();
    alterBundle(DESCRIPTION, 'Description from the bundle');
    expect(serveHelp()).toContain('Description from the bundle');
  });

  it('a source touched but not changed keeps the bundle (its content is compared)', () => {
    const file = path.join(copy, 'src/cli/serve.ts');
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    expect(serveHelp()).toContain('Description from the bundle');
  });

  it('an edited source runs as edited, never the bundle built before the edit, and the rebuilt bundle is used from then on', () => {
    const before = pointer().dir;
    const file = path.join(copy, 'src/cli/serve.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace(DESCRIPTION, 'Description edited in the sources'));
    const help = serveHelp();
    expect(help).toContain('Description edited in the sources');
    expect(help).not.toContain('Description from the bundle');
    expect(pointer().dir).not.toBe(before);
    alterBundle('Description edited in the sources', 'Description from the rebuilt bundle');
    expect(serveHelp()).toContain('Description from the rebuilt bundle');
  });

  it('an input whose recorded hash is not its content (stat not trusted) makes the sources run', () => {
    const recorded = pointer();
    // a module the serve command does not load: any input, not only the command's own files, decides
    recorded.inputs['src/cli/db.ts'] = { sha256: '0'.repeat(64), stat: null };
    writeFileSync(pointerFile, JSON.stringify(recorded));
    const help = serveHelp();
    expect(help).toContain('Description edited in the sources');
    expect(help).not.toContain('from the rebuilt bundle');
  });

  it('a bundled package edited in node_modules runs as edited, never the bundle built before the edit', () => {
    serveHelp();
    // commander's code in the bundle is what runs (esbuild prints its strings in double quotes)
    alterBundle('helpGroupHeading ?? "Options:"', 'helpGroupHeading ?? "Options from the bundle:"');
    expect(serveHelp()).toContain('\nOptions from the bundle:\n');
    const file = path.join(copy, 'node_modules/commander/lib/help.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace("helpGroupHeading ?? 'Options:'", "helpGroupHeading ?? 'Options of the edited package:'"));
    const help = serveHelp();
    expect(help).toContain('\nOptions of the edited package:\n');
    expect(help).not.toContain('Options from the bundle:');
  });

  it('SANDBOX_CLI_BUNDLE=off runs the sources even beside a fresh bundle', () => {
    alterBundle('Description edited in the sources', 'Description from the third bundle');
    expect(serveHelp()).toContain('Description from the third bundle');
    expect(serveHelp({ SANDBOX_CLI_BUNDLE: 'off' })).toContain('Description edited in the sources');
  });

  it("the SQL server's query worker is the fresh bundle's own file, never a stale bundle's (the server then builds it)", () => {
    const workerFile = (env: Record<string, string> = {}) => {
      const script = `const { bundledFile } = await import(${JSON.stringify(pathToFileURL(path.join(copy, 'bin/cli-bundle.js')).href)}); console.log(bundledFile('query-worker') ?? 'none');`;
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: copy, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout.trim();
    };
    serveHelp();
    const file = workerFile();
    expect(file).toBe(path.join(bundleDir(), 'query-worker.js'));
    expect(readFileSync(file, 'utf8')).toContain('// mcp-servers/sql/query-worker.ts');
    expect(workerFile({ SANDBOX_CLI_BUNDLE: 'off' })).toBe('none');
    const source = path.join(copy, 'mcp-servers/sql/query-worker.ts');
    writeFileSync(source, `${readFileSync(source, 'utf8')}\n// edited after the build\n`);
    expect(workerFile()).toBe('none');
  });
});
