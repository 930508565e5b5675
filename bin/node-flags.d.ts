/** Node's flags for `sandbox <argv>` (bin/node-flags.js). */
export function nodeFlags(argv: readonly string[]): string[];
