import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES } from '../../../databases/index.ts';
import { computeAnswer, queryRows } from '../../../episodes/ddr-generator/compute-answer.ts';
import { ddrGrader } from '../../../src/graders/ddr.ts';
import { DdrTaskSchema, type DdrTask } from '../../../src/schemas/ddr-task.ts';
import { referenceEvents } from '../../unit/ddr/reference-events.ts';

const taskDir = path.resolve(import.meta.dirname, '../../../episodes/ddr');
let scratch: string;
const connections = new Map<string, DuckDBConnection>();
let tasks: DdrTask[];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'ddr-int-'));
  const files = (await readdir(taskDir)).filter((file) => file.endsWith('.json')).sort();
  tasks = await Promise.all(files.map(async (file) => DdrTaskSchema.parse(JSON.parse(await readFile(path.join(taskDir, file), 'utf8')))));
  for (const database of new Set(tasks.map((task) => task.environment.database!))) {
    const file = path.join(scratch, `${database}.duckdb`);
    await DATABASES[database]!.build(file, {});
    connections.set(database, await (await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' })).connect());
  }
});

afterAll(async () => {
  for (const connection of connections.values()) connection.closeSync();
  await rm(scratch, { recursive: true, force: true });
});

describe('DDR tasks', () => {
  it('has at least 50 entities per scenario, each with at least 6 checklist items', () => {
    const perScenario = new Map<string, number>();
    for (const task of tasks) perScenario.set(task.grading.scenario!, (perScenario.get(task.grading.scenario!) ?? 0) + 1);
    for (const scenario of ['clinical', 'filings', 'contact-center']) expect(perScenario.get(scenario)).toBeGreaterThanOrEqual(50);
    for (const task of tasks) expect(task.grading.checklist.length, task.id).toBeGreaterThanOrEqual(6);
  });

  it('recomputes every checklist answer from its database through its SQL', async () => {
    let checked = 0;
    for (const task of tasks) {
      const connection = connections.get(task.environment.database!)!;
      for (const item of task.grading.checklist) {
        const answer = await computeAnswer(connection, item);
        if (item.answer_type === 'number') expect(Number(answer), `${task.id} ${item.id}`).toBeCloseTo(Number(item.answer), 9);
        else expect(answer, `${task.id} ${item.id}`).toEqual(item.answer);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(600);
  });

  it('grades each reference trajectory, played against the real database, 100 % with the deterministic grader', async () => {
    for (const task of tasks) {
      const connection = connections.get(task.environment.database!)!;
      const results: string[] = [];
      for (const step of task.reference.trajectory) {
        if ('toolCalls' in step) results.push(JSON.stringify(await queryRows(connection, String(step.toolCalls[0]!.arguments.sql))));
      }
      const score = await ddrGrader.grade(task, referenceEvents(task, (index) => results[index]!), {});
      expect(score.metrics.accuracy, task.id).toBe(1);
      expect(score.metrics.judge_accuracy).toBeNull();
      expect(score.metrics.queries).toBe(task.grading.checklist.length);
      expect(score.metrics.table_coverage).toBeGreaterThan(0);
      expect(score.metrics.ended_by_itself).toBe(1);
    }
  });

  it('grades a copy with some numbers changed INCORRECT_INFO on exactly those items', async () => {
    let changedItems = 0;
    for (const task of tasks.filter((_, index) => index % 5 === 0)) {
      // Change every other numeric fact's value wherever the agent states it.
      const targets = task.grading.checklist.filter((item) => item.answer_type === 'number').filter((_, index) => index % 2 === 0);
      const statements = new Map<string, string>();
      for (const item of targets) {
        const wrong = Number(item.answer) + Math.max(3, 10 * (item.tolerance ?? 0)) + 0.5;
        const text = Number.isInteger(Number(item.answer)) ? String(Math.round(wrong)) : wrong.toFixed(1);
        statements.set(String(item.answer), text);
      }
      const rewrite = (text: string) =>
        text
          .split(/(?<=\n)|(?<=[.!?] )/)
          .map((sentence) => {
            let changed = sentence;
            for (const item of targets) {
              const anchored = item.anchors.every((group) => group.some((phrase) => sentence.toLowerCase().includes(phrase.toLowerCase())));
              if (anchored) changed = changed.replace(new RegExp(`(?<![\\w.-])${String(item.answer).replace('.', '\\.')}(?![\\w]|\\.\\d)`, 'g'), statements.get(String(item.answer))!);
            }
            return changed;
          })
          .join('');
      const score = await ddrGrader.grade(task, referenceEvents(task, () => '[]', rewrite), {});
      const verdicts = score.details.verdicts as Array<{ itemId: string; verdict: string }>;
      const targetIds = new Set(targets.map((item) => item.id));
      for (const verdict of verdicts) expect(verdict.verdict, `${task.id} ${verdict.itemId}`).toBe(targetIds.has(verdict.itemId) ? 'INCORRECT_INFO' : 'CORRECT_INFO');
      changedItems += targets.length;
    }
    expect(changedItems).toBeGreaterThan(20);
  });
});
