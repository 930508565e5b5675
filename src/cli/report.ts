import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, Option } from 'commander';
import { displayPath } from '../engine/load-task.ts';
import { UsageError } from '../sandbox-error.ts';
import { EXIT_CODES } from './exit-codes.ts';

const FORMATS = ['html', 'md', 'csv', 'junit'] as const;
type Format = (typeof FORMATS)[number];
const EXTENSIONS: Record<Format, string> = { html: 'html', md: 'md', csv: 'csv', junit: 'junit.xml' };

/** `sandbox report`: one run as a shareable file (self-contained HTML with plots, Markdown, CSV or JUnit XML), or with `--episodes` a folder with every transcript. */
export function reportCommand(): Command {
  return new Command('report')
    .description('Write a report of one run: self-contained HTML with plots (opens offline), Markdown, CSV of episodes, or JUnit XML for CI')
    .argument('<run-dir>', 'a run folder')
    .addOption(new Option('--format <format>', 'report format').choices(FORMATS).default('html'))
    .option('--out <file>', 'where to write it (default <run-dir>/report.<ext>; - for stdout; with --episodes a folder, default <run-dir>/bundle)')
    .option('--episodes', 'with --format html: a static bundle, one folder with the report and every episode\'s transcript, that opens from disk with no network')
    .action(async (runDir: string, flags: { format: Format; out?: string; episodes?: boolean }) => {
      if (flags.episodes) {
        if (flags.format !== 'html') throw new UsageError(`--episodes writes an HTML bundle: it takes --format html, not ${flags.format}`);
        if (flags.out === '-') throw new UsageError('--episodes writes a folder: --out - (stdout) cannot hold it');
        const out = path.resolve(flags.out ?? path.join(runDir, 'bundle'));
        const episodes = await (await import('../report/bundle.ts')).writeBundle(runDir, out);
        process.stdout.write(`${displayPath(out)}/index.html (${episodes} episode${episodes === 1 ? '' : 's'}, each in episodes/)\n`);
        process.exitCode = EXIT_CODES.ok;
        return;
      }
      const { collectRun } = await import('../report/collect.ts');
      const data = await collectRun(runDir);
      let text: string;
      if (flags.format === 'html') text = await (await import('../report/html.ts')).htmlReport(data);
      else if (flags.format === 'md') text = (await import('../report/markdown.ts')).markdownReport(data);
      else if (flags.format === 'junit') text = (await import('../report/junit.ts')).junitReport(data);
      else text = (await import('../report/csv.ts')).reportCsv(data.episodes);
      if (flags.out === '-') {
        process.stdout.write(text);
      } else {
        const out = path.resolve(flags.out ?? path.join(runDir, `report.${EXTENSIONS[flags.format]}`));
        await mkdir(path.dirname(out), { recursive: true });
        // written whole or not at all
        const partial = `${out}.${process.pid}.partial`;
        await writeFile(partial, text);
        await rename(partial, out);
        process.stdout.write(`${displayPath(out)} (${(Buffer.byteLength(text) / 1024).toFixed(0)} KB)\n`);
      }
      process.exitCode = EXIT_CODES.ok;
    });
}
