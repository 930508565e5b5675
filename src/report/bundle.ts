import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResultsStore, Row } from '../results/store.ts';
import { SandboxError } from '../sandbox-error.ts';
import { bundleReport } from '../viewer/bundle.ts';
import { inlineScript, scriptJson } from '../viewer/script-json.ts';
import { collectRun } from './collect.ts';
import { htmlPage, htmlReport, viewerCss } from './html.ts';

/** Left in a bundle's folder: a later bundle may replace a folder holding it, and no other. */
const MARKER = '.sandbox-bundle';

/** An episode's page's file name: its trajectory's (unique in a run folder), as .html. */
function pageName(file: string): string {
  return `${path.basename(file, '.jsonl')}.html`;
}

/** The link to a page (a file name with `#`, `%` or a space still links to itself). */
const href = (name: string) => encodeURIComponent(name);

/**
 * A static bundle of one run: `index.html` (the HTML report, each episode linked) and `episodes/<task>.<repeat>.html`,
 * one page per episode with its whole transcript in the chat view. Every page is self-contained (styles, script and
 * data inline, a CSP that forbids loading anything), so the folder opens from disk with no network and no server.
 * Written beside the target and renamed into place: whole or not at all. Returns the number of episodes.
 */
export async function writeBundle(runDir: string, out: string): Promise<number> {
  await checkTarget(out);
  const partial = `${out}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(path.join(partial, 'episodes'), { recursive: true });
  try {
    const [script, css] = await Promise.all([bundleReport('transcript-page'), viewerCss()]);
    let written = 0;
    const data = await collectRun(runDir, async (store, absolute) => {
      const episodes = await store.query('SELECT * FROM episode_scores WHERE run_dir = $1 ORDER BY task_id, repeat', [absolute]);
      const runName = path.basename(absolute);
      for (const [index, episode] of episodes.entries()) {
        const events = await transcript(store, episode.episode_id as string);
        const link = (other: Row | undefined) => (other ? href(pageName(other.file as string)) : null);
        const payload = { run: runName, episode, events, report: '../index.html', previous: link(episodes[index - 1]), next: link(episodes[index + 1]) };
        const body = `<main id="app"></main>\n<script type="application/json" id="transcript-data">${scriptJson(payload)}</script>\n<script type="module">${inlineScript(script)}</script>`;
        await writeFile(path.join(partial, 'episodes', pageName(episode.file as string)), htmlPage(`${episode.task_id}#${episode.repeat} (${runName})`, css, body));
        written++;
      }
    });
    const links = Object.fromEntries(data.episodes.rows.map((row) => [String(row.file), `episodes/${href(pageName(String(row.file)))}`]));
    await writeFile(path.join(partial, 'index.html'), await htmlReport(data, links));
    await writeFile(path.join(partial, MARKER), 'a static bundle written by `sandbox report --episodes`; a later bundle may replace this folder\n');
    await rm(out, { recursive: true, force: true });
    await rename(partial, out);
    return written;
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

/** A folder that exists, is not empty and is no bundle is never replaced. */
async function checkTarget(out: string): Promise<void> {
  const info = await stat(out).catch(() => null);
  if (!info) return;
  if (!info.isDirectory()) throw new SandboxError('invalid-input', `${out} is a file, not a folder: name a folder for the bundle`);
  const names = await readdir(out);
  if (names.length > 0 && !names.includes(MARKER)) throw new SandboxError('invalid-input', `${out} is a folder that holds other files (no ${MARKER}): name an empty or new folder for the bundle`);
}

/**
 * Every event of an episode in full (the columns the viewer's event pages carry, src/viewer/queries.ts `eventPage`),
 * each tool result with its call's disposition (a blocked call's result is the feedback the agent read).
 */
async function transcript(store: ResultsStore, episodeId: string): Promise<Row[]> {
  const rows = await store.query('SELECT * EXCLUDE (episode_id), length(content) AS content_length FROM steps WHERE episode_id = $1 ORDER BY seq', [episodeId]);
  const dispositions = new Map(rows.filter((row) => row.type === 'tool-call').map((row) => [row.call_id, row.disposition]));
  for (const row of rows) if (row.type === 'tool-result' && (row.disposition === null || row.disposition === undefined)) row.disposition = dispositions.get(row.call_id) ?? null;
  return rows;
}
