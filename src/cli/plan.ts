import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { loadTask } from '../engine/load-task.ts';
import { SandboxError, UsageError } from '../sandbox-error.ts';
import type { Plan } from '../schemas/plan.ts';
import { isPlanTask, type Task } from '../schemas/task.ts';
import { checkModelSpec, positiveInteger } from './cli-options.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { formatTable } from './format-table.ts';

/** A plan file: `{"query": "...", "steps": [...]}` (a bare plan needs --query). */
interface PlanInput {
  query: string;
  initial: Plan;
  reference?: Plan;
  filterVocabulary: string[];
  label: string;
  task?: Task;
}

async function planInput(target: string, flags: { query?: string; model?: string }): Promise<PlanInput> {
  const { parsePlan } = await import('../planning/index.ts');
  if (target.endsWith('.json')) {
    const text = await readFile(target, 'utf8').catch(() => {
      throw new SandboxError('not-found', `no plan or task file ${target}`);
    });
    const raw = JSON.parse(text) as { style?: string; query?: string };
    if (raw.style === undefined) {
      const parsed = parsePlan(text);
      if (!parsed.ok) throw new SandboxError('invalid-input', `${target}: not a plan (${parsed.message})`);
      const query = flags.query ?? raw.query;
      if (!query) throw new SandboxError('invalid-input', `${target}: a plan file needs its question: a "query" field or --query`);
      return { query, initial: parsed.plan, filterVocabulary: [], label: path.basename(target, '.json') };
    }
  }
  const { task } = await loadTask(target);
  if (!isPlanTask(task)) throw new SandboxError('invalid-input', `${task.id} is a ${task.style} task; plan optimize takes a plan task or a plan file`);
  let initial = task.reference.plan;
  if (flags.model) {
    // The model plans the question once; the lineage loop then revises that plan.
    const { createModel } = await import('../models/index.ts');
    const model = await createModel(flags.model, { task, tools: [] });
    const response = await model.respond({ messages: [{ role: 'system', content: task.system }, { role: 'user', content: task.query }], tools: [] });
    const parsed = parsePlan(response.message.content ?? '');
    if (!parsed.ok) throw new SandboxError('model-error', `${flags.model} did not answer ${task.id} with a plan: ${parsed.message}`);
    initial = parsed.plan;
  }
  return { query: task.query, initial, reference: task.reference.plan, filterVocabulary: task.metadata.filterTerms as string[], label: task.id, task };
}

/** `sandbox plan optimize TASK|PLAN`: the lineage loop (step tags → optimizer) on the command line, every pass recorded. */
export function planCommand(): Command {
  const plan = new Command('plan').description('Planning tools: optimize a plan with the lineage loop');
  plan
    .command('optimize')
    .description('Tag each step, revise the plan, repeat up to N passes; print and record every pass')
    .argument('<task|plan>', 'a plan task id or file (initial plan: the model\'s answer with --model, else the reference), or a plan JSON file')
    .option('--model <spec>', 'the model that plans, tags and optimizes (e.g. openai:gpt-4.1); without it the structural tags and edits only', checkModelSpec)
    .option('--passes <n>', 'most evaluator → optimizer passes (at most 4)', positiveInteger('--passes'), 4)
    .option('--query <text>', 'the question a bare plan file answers')
    .option('--out <file>', 'where the lineage is written (default runs/plan-optimize/<id>.json)')
    .action(async (target: string, flags: { model?: string; passes: number; query?: string; out?: string }) => {
      const input = await planInput(target, flags);
      const { runLineage, MAX_LINEAGE_PASSES } = await import('../planning/index.ts');
      if (flags.passes > MAX_LINEAGE_PASSES) throw new UsageError(`--passes must be at most ${MAX_LINEAGE_PASSES}, got ${flags.passes}`);
      let model;
      if (flags.model && input.task) {
        const { createModel } = await import('../models/index.ts');
        model = await createModel(flags.model, { task: input.task, tools: [] });
      }
      const lineage = await runLineage(input.initial, {
        query: input.query,
        ...(input.reference ? { reference: input.reference } : {}),
        ...(model ? { model } : {}),
        filterVocabulary: input.filterVocabulary,
        maxPasses: flags.passes,
      });
      const out = path.resolve(flags.out ?? path.join('runs', 'plan-optimize', `${input.label}.json`));
      await mkdir(path.dirname(out), { recursive: true });
      await writeFile(out, `${JSON.stringify({ target, query: input.query, model: flags.model ?? null, ...lineage }, null, 2)}\n`);
      const tagsOf = (entry: (typeof lineage.entries)[number]): string =>
        entry.assessments.map((assessment) => `${assessment.stepId}:${assessment.tags.join('+')}`).join(' ');
      process.stdout.write(
        `${formatTable({
          title: `${input.label}: ${lineage.passes} pass(es), stopped: ${lineage.stoppedBecause}`,
          columns: ['revision', 'steps', 'tags', 'edits'],
          rows: lineage.entries.map((entry) => [entry.revision, entry.plan.steps.length, tagsOf(entry), entry.edits.join('; ') || '-']),
        })}\n${lineage.errors.map((error) => `error: ${error}\n`).join('')}lineage written to ${path.relative(process.cwd(), out)}\n`,
      );
      process.exitCode = lineage.errors.length > 0 ? EXIT_CODES['model-error'] : EXIT_CODES.ok;
    });
  return plan;
}
