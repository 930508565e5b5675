import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ddrGrader } from '../../../src/graders/ddr.ts';
import { DdrTaskSchema } from '../../../src/schemas/ddr-task.ts';
import { referenceEvents } from './reference-events.ts';

describe('DDR exploration metrics', () => {
  it('are "not measured" (absent), never 0, when the task serves no database', async () => {
    const task = DdrTaskSchema.parse(JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../../episodes/ddr/ddr-filings-c-001.json'), 'utf8')));
    const withoutDatabase = { ...task, environment: { ...task.environment, servers: [] } };
    const score = await ddrGrader.grade(withoutDatabase, referenceEvents(withoutDatabase), {});
    for (const metric of ['table_coverage', 'column_coverage', 'entropy', 'queries', 'unparsed_queries']) expect(score.metrics, metric).not.toHaveProperty(metric);
    expect(score.details.exploration).toMatch(/not measured/);
    expect(score.metrics.accuracy).toBe(1);
  });
});
