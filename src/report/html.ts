import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleReport } from '../viewer/bundle.ts';
import { inlineScript, scriptJson } from '../viewer/script-json.ts';
import type { RunReportData } from './collect.ts';

const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'viewer', 'client');

/**
 * One self-contained HTML file: the viewer's styles, the report client (Observable Plot bundled in) and the run's data
 * inline. It loads nothing from anywhere (a CSP forbids it), so it opens offline and can be shared as one file.
 */
export async function htmlReport(data: RunReportData): Promise<string> {
  const [script, css] = await Promise.all([bundleReport(), readFile(path.join(CLIENT, 'style.css'), 'utf8')]);
  const run = data.detail.run as Record<string, unknown>;
  const payload = { detail: data.detail, reports: data.reports, episodes: data.episodes, generatedAt: new Date().toISOString() };
  const title = String(run.name).replace(/[<>&"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${title}: sandbox report</title>
<style>${css}</style>
</head>
<body>
<main id="app"></main>
<script type="application/json" id="report-data">${scriptJson(payload)}</script>
<script type="module">${inlineScript(script)}</script>
</body>
</html>
`;
}
