import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultValidatorFactory, modelFactoryFor } from '../../src/engine/episode-defaults.ts';
import { loadSuite } from '../../src/engine/load-task.ts';
import { runSuite } from '../../src/engine/run-suite.ts';

/**
 * Runs the model-free `explorer` once on every task of a DDR suite (offline, in-process servers) and records its
 * checklist accuracy in each task file (`grading.baseline.explorer`), so reports show it beside any model's scores
 * for that very suite. Task files are rewritten in place; nothing else is kept.
 */
export async function recordExplorerBaseline(suiteDir: string, options: { concurrency?: number } = {}): Promise<{ tasks: number; accuracy: number }> {
  const tasks = await loadSuite(suiteDir);
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'ddr-baseline-'));
  try {
    const result = await runSuite({
      tasks,
      modelSpec: 'explorer',
      createModel: modelFactoryFor('explorer'),
      outDir,
      concurrency: options.concurrency ?? 2,
      createValidator: defaultValidatorFactory,
      suite: suiteDir,
    });
    let correct = 0;
    let items = 0;
    for (const { task, path: file } of tasks) {
      const score = result.episodes.find((episode) => episode.taskId === task.id)?.score;
      if (!score) throw new Error(`the explorer episode of ${task.id} was not graded: ${result.episodes.find((episode) => episode.taskId === task.id)?.reason}`);
      const explorer = { accuracy: Number(Number(score.metrics.accuracy).toFixed(4)), correct: Number(score.metrics.correct), items: Number(score.metrics.items) };
      correct += explorer.correct;
      items += explorer.items;
      // Rewrite the file as written (relative paths kept), only adding the baseline.
      const json = JSON.parse(await readFile(file, 'utf8')) as { grading: Record<string, unknown> };
      json.grading.baseline = { explorer };
      await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
    }
    return { tasks: tasks.length, accuracy: items === 0 ? 0 : correct / items };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
