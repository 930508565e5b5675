import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';

async function stderrOf(argv: string[]): Promise<{ status: number; text: string }> {
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    const status = await main(argv);
    return { status, text: written.join('') };
  } finally {
    process.stderr.write = write;
  }
}

describe('a mistyped flag names the nearest one', () => {
  it('run --modle: the required --model is missing because it was mistyped, and the line says so (usage, exit 2)', async () => {
    const { status, text } = await stderrOf(['run', '--suite', 'episodes/cctu/cctu2-mh-001.json', '--modle', 'reference']);
    expect(status).toBe(2);
    expect(text).toContain("required option '--model <spec>' not specified");
    expect(text).toContain("sandbox: unknown option '--modle' (did you mean '--model'?)");
  });

  it('--flag=value is read by its name; a flag unlike every one is named without a guess', async () => {
    const { text } = await stderrOf(['run', '--suite', 'episodes/cctu/cctu2-mh-001.json', '--modle=reference', '--zzzzzzzz']);
    expect(text).toContain("sandbox: unknown option '--modle' (did you mean '--model'?)");
    expect(text).toContain("sandbox: unknown option '--zzzzzzzz'\n");
  });
});
