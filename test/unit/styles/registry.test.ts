import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../../src/sandbox-error.ts';
import { STYLES, TaskFileSchema, styleOf } from '../../../src/styles/registry.ts';

describe('the style registry', () => {
  it('finds a style by the name its tasks carry: every entry is named as its task schema\'s style literal', () => {
    // A task's `style` field picks its entry (src/styles/style.ts, EpisodeStyle.name), so the two must agree.
    for (const style of STYLES) {
      expect(style.taskSchema.shape.style.value).toBe(style.name);
      expect(styleOf(style.name)).toBe(style);
    }
    expect(new Set(STYLES.map((style) => style.name)).size).toBe(STYLES.length);
  });

  it('refuses a style it does not list, in one line naming the ones it knows (invalid-input)', () => {
    let thrown: unknown;
    try {
      styleOf('customer');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SandboxError);
    expect((thrown as SandboxError).code).toBe('invalid-input');
    expect((thrown as SandboxError).message).toBe(`unknown episode style "customer" (known: ${STYLES.map((style) => style.name).join(', ')})`);
  });

  it('the task file schema rejects a task of an unregistered style at its style field', () => {
    const result = TaskFileSchema.safeParse({ schemaVersion: 1, id: 'x', style: 'customer', title: 't', domain: 'd', system: '', query: 'q' });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(['style']);
  });
});
