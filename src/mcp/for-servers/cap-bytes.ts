// The one part of src/mcp the servers in mcp-servers/ may import (eslint.layers.js): the same byte cap on both sides.

/** Cuts text to at most `maxBytes` UTF-8 bytes (never inside a character) and says so. */
export function capBytes(text: string, maxBytes: number): string {
  // Fast path: a string of n UTF-16 units is at most 3n UTF-8 bytes.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const note = `\n[truncated: showing ${maxBytes} of ${bytes.length} bytes]`;
  const keep = Math.max(0, maxBytes - Buffer.byteLength(note));
  // Decoding a cut buffer may end in a replacement character; drop it.
  const head = bytes.subarray(0, keep).toString('utf8').replace(/\uFFFD$/, '');
  return head + note;
}
