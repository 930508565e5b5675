import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

// The repository documents itself (docs/architecture.md): a user who clones it has nothing outside it, so every
// relative link in the docs must resolve inside the repository, and no tracked file may point to a design document
// that lived outside it.
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
const docs = tracked.filter((file) => file === 'README.md' || file === 'AGENTS.md' || file.startsWith('docs/') || path.basename(file) === 'README.md');
const textFiles = tracked.filter((file) => /\.(ts|js|mjs|md|json|txt|html|css|yml|yaml|sh)$|^\.ci\//.test(file) && existsSync(path.join(REPO_ROOT, file)));

/** Relative targets of Markdown links `[text](target)` and `<a href>`s, anchors and titles dropped. */
function relativeLinks(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const targets = [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...withoutCode.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#')).map((target) => decodeURIComponent(target.split('#')[0]!));
}

describe('the documentation stays inside the repository', () => {
  it('covers the top-level docs, docs/ and the folder READMEs', () => {
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'AGENTS.md', 'docs/architecture.md', 'docs/benchmarks.md', 'constraints/README.md']));
  });

  it.each(docs)('every relative link in %s resolves to a file in the repository', (file) => {
    const broken = relativeLinks(readFileSync(path.join(REPO_ROOT, file), 'utf8')).filter((target) => {
      const resolved = path.resolve(REPO_ROOT, path.dirname(file), target);
      return !resolved.startsWith(REPO_ROOT + path.sep) || !existsSync(resolved);
    });
    expect(broken).toEqual([]);
  });

  it('no tracked file names the design documents that lived outside the repository', () => {
    const offenders: string[] = [];
    for (const file of textFiles) {
      if (file === 'test/unit/layers/docs-links.test.ts') continue;
      const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
      if (/shared\/DESIGN|STYLE\.md|shared\/reference|\/work\/shared|DESIGN\.md/.test(text)) offenders.push(file);
      // `../shared` is allowed only where it resolves inside the repository (mcp-servers/shared/).
      for (const match of text.matchAll(/((?:\.\.\/)+shared)\b/g)) {
        const resolved = path.resolve(REPO_ROOT, path.dirname(file), match[1]!);
        if (!resolved.startsWith(REPO_ROOT + path.sep) || !existsSync(resolved)) offenders.push(`${file}: ${match[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
