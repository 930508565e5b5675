// CCTU's message markers in one module (src/schemas/cctu-markers.ts), and the isolate's copy kept equal to it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { FOLLOWING_ERROR_MARK, FOLLOWING_ERROR_PREFIX, followingErrorHead } from '../../../src/schemas/cctu-markers.ts';

describe("CCTU's message markers", () => {
  it('the head the validators write is one the scorer finds (evaluation.py _ERR_RE: the prefix, a name of [A-Z0-9 _], NOT FOLLOWED!)', () => {
    expect(followingErrorHead('MAX LENGTH')).toBe('INSTRUCTION FOLLOWING ERROR: MAX LENGTH NOT FOLLOWED! ');
    expect(FOLLOWING_ERROR_MARK.test(`${followingErrorHead('INTERACTION ROUNDS')}Round 3 is the last.`)).toBe(true);
    // re.IGNORECASE, and Python's \s (a no-break space) between the colon and the name
    expect(FOLLOWING_ERROR_MARK.test('instruction following error:\u00a0tool order not followed!')).toBe(true);
    // a name outside [A-Z0-9 _] (a hyphen) is not a mark, nor is the prefix alone
    expect(FOLLOWING_ERROR_MARK.test('INSTRUCTION FOLLOWING ERROR: MAX-LENGTH NOT FOLLOWED!')).toBe(false);
    expect(FOLLOWING_ERROR_MARK.test(FOLLOWING_ERROR_PREFIX)).toBe(false);
  });

  it("the isolate's copy in constraints/shared/verdicts.js spells the prefix the same", async () => {
    const source = await readFile(path.join(REPO_ROOT, 'constraints/shared/verdicts.js'), 'utf8');
    const copies = [...source.matchAll(/^const FOLLOWING_ERROR_PREFIX = '([^']*)';$/gm)].map((match) => match[1]);
    expect(copies).toEqual([FOLLOWING_ERROR_PREFIX]);
  });
});
