import { describe, expect, it } from 'vitest';
import { nearestName } from '../../../src/nearest-name.ts';
import { main } from '../../../src/cli/main.ts';

const COMMANDS = ['episode', 'run', 'replay', 'fork', 'grade', 'tasks', 'lint', 'validate', 'db', 'serve', 'mcp-config', 'results', 'report', 'export', 'view'];

describe('nearest name (did you mean)', () => {
  it('finds a name one or two edits away: a missing, extra or wrong letter, two letters swapped', () => {
    expect(nearestName('serv', COMMANDS)).toBe('serve');
    expect(nearestName('resuls', COMMANDS)).toBe('results');
    expect(nearestName('exprot', COMMANDS)).toBe('export');
    expect(nearestName('GRADE', COMMANDS)).toBe('grade');
    expect(nearestName('mcpconfig', COMMANDS)).toBe('mcp-config');
  });

  it('suggests nothing for a word unlike every name (more edits than a third of its length)', () => {
    expect(nearestName('benchmark', COMMANDS)).toBeUndefined();
    expect(nearestName('xy', COMMANDS)).toBeUndefined();
  });

  it('sandbox serv: a usage error naming serve', async () => {
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      expect(await main(['serv', '--task', 'demo'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(written.join('')).toMatch(/^sandbox: unknown command 'serv' \(did you mean 'serve'\?\)/);
  });
});
