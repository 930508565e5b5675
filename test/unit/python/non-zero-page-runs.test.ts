import { describe, expect, it } from 'vitest';
import { nonZeroPageRuns } from '../../../src/python-sandbox/pyodide-assets.ts';

// The rule (src/python-sandbox/README.md, "A restore copies the snapshot's non-zero pages"): a snapshot is a header
// whose second 32-bit word is the offset of its memory part, then the WASM memory; the runs are the [start, end)
// 4 KiB page ranges of the memory part holding any non-zero byte, adjacent pages merged, every other page all zero.
const PAGE = 4096;

function snapshotWith(headerBytes: number, pages: number, nonZero: Array<[page: number, offsetInPage: number]>): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(headerBytes + pages * PAGE);
  new Uint32Array(buffer, 0, 2)[1] = headerBytes;
  const memory = new Uint8Array(buffer, headerBytes);
  for (const [page, offset] of nonZero) memory[page * PAGE + offset] = 0x5a;
  return buffer;
}

describe('nonZeroPageRuns', () => {
  it('finds the runs of pages with a non-zero byte, merging neighbours, from the memory part on', () => {
    // pages 0, 1 (last byte), 2 → one run [0, 3); page 5 alone → [5, 6); pages 7 (first byte), 8 → [7, 9); 9 zero
    const snapshot = snapshotWith(64, 10, [[0, 0], [1, PAGE - 1], [2, 100], [5, 7], [7, 0], [8, 2000]]);
    expect([...nonZeroPageRuns(snapshot)]).toEqual([0, 3, 5, 6, 7, 9]);
  });

  it('reads the header bytes as not memory: a non-zero header alone gives no run', () => {
    const snapshot = snapshotWith(64, 4, []);
    new Uint8Array(snapshot, 8, 56).fill(0xff);
    expect([...nonZeroPageRuns(snapshot)]).toEqual([]);
  });

  it('a memory whose last page is non-zero ends its run at the page count', () => {
    expect([...nonZeroPageRuns(snapshotWith(48, 3, [[2, PAGE - 1]]))]).toEqual([2, 3]);
  });
});
