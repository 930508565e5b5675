import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleReport } from '../viewer/bundle.ts';
import { inlineScript, scriptJson } from '../viewer/script-json.ts';
import type { RunReportData } from './collect.ts';

const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'viewer', 'client');

/** The viewer's styles, which every report page inlines. */
export function viewerCss(): Promise<string> {
  return readFile(path.join(CLIENT, 'style.css'), 'utf8');
}

/**
 * A self-contained page: styles and body inline, and a CSP that forbids loading anything (scripts and styles only
 * inline, images only as data: URLs), so it opens offline, from disk, and can be shared as a file.
 */
export function htmlPage(title: string, css: string, body: string): string {
  const escaped = title.replace(/[<>&"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${escaped}: sandbox report</title>
<style>${css}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * One self-contained HTML file: the viewer's styles, the report client (Observable Plot bundled in) and the run's data
 * inline. `episodeLinks` (a bundle's: trajectory file name → its page, relative) links each episode to its transcript.
 */
export async function htmlReport(data: RunReportData, episodeLinks?: Record<string, string>): Promise<string> {
  const [script, css] = await Promise.all([bundleReport(), viewerCss()]);
  const run = data.detail.run as Record<string, unknown>;
  const payload = { detail: data.detail, reports: data.reports, episodes: data.episodes, episodeLinks: episodeLinks ?? null, generatedAt: new Date().toISOString() };
  return htmlPage(String(run.name), css, `<main id="app"></main>
<script type="application/json" id="report-data">${scriptJson(payload)}</script>
<script type="module">${inlineScript(script)}</script>`);
}
