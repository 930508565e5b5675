import { describe, expect, it } from 'vitest';
import { createModel } from '../../../src/models/create-model.ts';
import { weatherTask } from '../../support/weather-task.ts';

const context = { task: weatherTask(), tools: [] };

describe('createModel', () => {
  it('rejects an unknown spec with the list of forms', async () => {
    await expect(createModel('gemini:pro', context)).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringContaining('openai-compatible:<base-url>#<model>') });
  });

  it('needs the provider key for openai: and anthropic:, not for a local openai-compatible server', async () => {
    await expect(createModel('openai:gpt-4o', { ...context, env: {} })).rejects.toMatchObject({ code: 'model-error', message: expect.stringContaining('OPENAI_API_KEY') });
    await expect(createModel('anthropic:claude-sonnet-4-5', { ...context, env: {} })).rejects.toMatchObject({ code: 'model-error', message: expect.stringContaining('ANTHROPIC_API_KEY') });
    const local = await createModel('openai-compatible:http://localhost:11434/v1#llama3.1', { ...context, env: {} });
    expect(local.spec).toBe('openai-compatible:http://localhost:11434/v1#llama3.1');
  });

  it('rejects a base URL that is not http(s)', async () => {
    await expect(createModel('openai-compatible:localhost:11434#llama3.1', { ...context, env: {} })).rejects.toMatchObject({ code: 'model-error', message: expect.stringContaining('not an http(s) URL') });
  });
});

describe('createModel explorer', () => {
  it('loads the explorer lazily, which then judges the task (it needs the sql tool)', async () => {
    await expect(createModel('explorer', context)).rejects.toMatchObject({ code: 'model-error', message: expect.stringMatching(/^explorer: /) });
  });
});
