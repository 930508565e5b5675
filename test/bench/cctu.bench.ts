// `npm run bench -- cctu`: importing 200 samples of CCTU's released format (import_200_s: `sandbox import cctu`'s work,
// reading input_data.jsonl and check_code/, checking every Python tool and validator in the Python sandbox, opened cold
// in this process, and writing the suite), regenerating the 200-task suite (generate_s), and the whole suite played by the
// `reference` model at concurrency 2 with the real validator and mock-tools servers (suite_s), plus its SR/PSR
// and the suite's mean prompt tokens (system + tools + query, cl100k_base; not timed).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeSuite } from '../../episodes/cctu-generator/index.ts';
import { importCctu, writeSuite as writeImportedSuite } from '../../src/import/cctu/index.ts';
import { writeCctuFixture } from '../support/cctu-fixture.ts';
import { defaultValidatorFactory, loadSuite, modelFactoryFor, runSuite } from '../../src/engine/index.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { suiteShape } from '../../src/cli/suite-shape.ts';

export async function run(): Promise<Record<string, number>> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'cctu-bench-'));
  try {
    const fixture = writeCctuFixture();
    let started = performance.now();
    const imported = await importCctu(fixture.data, fixture.checkCode);
    await writeImportedSuite(path.join(scratch, 'imported'), imported.tasks);
    const importSeconds = (performance.now() - started) / 1000;
    await rm(fixture.dir, { recursive: true, force: true });

    started = performance.now();
    await writeSuite(1, path.join(scratch, 'suite'));
    const generate = (performance.now() - started) / 1000;

    const tasks = await loadSuite(path.join(REPO_ROOT, 'episodes/cctu'));
    started = performance.now();
    const result = await runSuite({
      tasks,
      modelSpec: 'reference',
      createModel: modelFactoryFor('reference'),
      outDir: path.join(scratch, 'run'),
      concurrency: 2,
      createValidator: defaultValidatorFactory,
    });
    const suite = (performance.now() - started) / 1000;
    const scores = result.episodes.flatMap((episode) => (episode.score ? [episode.score] : []));
    const rate = (metric: string) => scores.reduce((sum, score) => sum + (score.metrics[metric] ?? 0), 0) / Math.max(1, tasks.length);
    const shape = suiteShape(tasks.map(({ task }) => task));
    return { import_200_s: importSeconds, imported: imported.tasks.length, generate_s: generate, suite_s: suite, episodes: result.episodes.length, sr: rate('sr'), psr: rate('psr'), mean_prompt_tokens: shape.meanPromptTokens, distinct_tools: shape.distinctTools };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
