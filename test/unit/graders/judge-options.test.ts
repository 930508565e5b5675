import { describe, expect, it } from 'vitest';
import { loadTask } from '../../../src/engine/load-task.ts';
import { judgeOptions } from '../../../src/graders/judge-options.ts';

describe('judgeOptions', () => {
  it('gives no judge without a spec, so judge-only metrics stay "not judged"', async () => {
    const { task } = await loadTask('demo');
    expect(await judgeOptions(undefined)(task)).toEqual({});
  });

  it('makes the judge a model spec names, per task', async () => {
    const { task } = await loadTask('demo');
    const options = await judgeOptions('openai-compatible:http://127.0.0.1:9/v1#judge')(task);
    expect(options.judge?.spec).toBe('openai-compatible:http://127.0.0.1:9/v1#judge');
  });
});
