import { describe, expect, it } from 'vitest';
import { selectTasks } from '../../../src/engine/select-tasks.ts';
import { cctuTask } from './fixtures.ts';

const suite = ['cctu-mh-001', 'cctu-mh-002', 'cctu-mh-003', 'cctu-mh-010', 'cctu-psh-001', 'cctu-sh-001'].map((id) => ({ task: cctuTask({ id }), path: `${id}.json` }));
const ids = (selected: ReturnType<typeof selectTasks>) => selected.map(({ task }) => task.id);

describe('selectTasks', () => {
  it('matches ids and globs over ids with the full glob syntax, in suite order', () => {
    expect(ids(selectTasks(suite, { tasks: 'cctu-mh-00[1-3]' }))).toEqual(['cctu-mh-001', 'cctu-mh-002', 'cctu-mh-003']);
    expect(ids(selectTasks(suite, { tasks: 'cctu-sh-001, cctu-mh-010' }))).toEqual(['cctu-mh-010', 'cctu-sh-001']);
    expect(ids(selectTasks(suite, { tasks: 'cctu-{sh,psh}-*' }))).toEqual(['cctu-psh-001', 'cctu-sh-001']);
    expect(ids(selectTasks(suite, { tasks: 'cctu-{sh,psh}-*,cctu-mh-010' }))).toEqual(['cctu-mh-010', 'cctu-psh-001', 'cctu-sh-001']);
    expect(ids(selectTasks(suite, { tasks: 'cctu-mh-0?[^1]' }))).toEqual(['cctu-mh-002', 'cctu-mh-003', 'cctu-mh-010']);
    expect(ids(selectTasks(suite, { tasks: 'cctu-mh-+(0|1)01' }))).toEqual(['cctu-mh-001']);
  });

  it('fails naming a pattern that matches nothing (a typo is not an empty run)', () => {
    expect(() => selectTasks(suite, { tasks: 'cctu-mh-001,cctu-xx-*' })).toThrow(expect.objectContaining({ code: 'not-found', message: '--tasks: no task id matches "cctu-xx-*"' }));
  });

  it('a mistyped id names the nearest one (one edit: a 0 left out), and nothing for an id unlike every one', () => {
    expect(() => selectTasks(suite, { tasks: 'cctu-psh-01' })).toThrow(expect.objectContaining({ code: 'not-found', message: '--tasks: no task id matches "cctu-psh-01" (did you mean "cctu-psh-001"?)' }));
    expect(() => selectTasks(suite, { tasks: 'ddr-clinical-p-0001' })).toThrow(expect.objectContaining({ message: '--tasks: no task id matches "ddr-clinical-p-0001"' }));
  });

  it('--limit keeps the first N; --sample N --seed S is a seeded sample kept in suite order', () => {
    expect(ids(selectTasks(suite, { limit: 2 }))).toEqual(['cctu-mh-001', 'cctu-mh-002']);
    const sample = ids(selectTasks(suite, { sample: 3, seed: 5 }));
    expect(sample).toHaveLength(3);
    expect(ids(selectTasks(suite, { sample: 3, seed: 5 }))).toEqual(sample);
    expect(sample).toEqual(ids(suite).filter((id) => sample.includes(id)));
    const seeds = new Set(Array.from({ length: 10 }, (_, seed) => ids(selectTasks(suite, { sample: 3, seed })).join()));
    expect(seeds.size).toBeGreaterThan(1);
    expect(ids(selectTasks(suite, { sample: 10 }))).toEqual(ids(suite));
    expect(ids(selectTasks(suite, { tasks: 'cctu-mh-*', sample: 3, seed: 1, limit: 1 }))).toHaveLength(1);
  });
});
