import { createRequire } from 'node:module';
import type * as Arrow from 'apache-arrow';

/**
 * apache-arrow as LanceDB sees it: LanceDB is CommonJS and requires the package's CommonJS build, while an ESM
 * `import` loads its separate ES-module build, whose classes fail LanceDB's `instanceof` checks (a Table built
 * with them is rebuilt field by field, and then rejected as not matching its own schema). Tables and schemas
 * handed to LanceDB are built with this one.
 */
export const arrow = createRequire(import.meta.url)('apache-arrow') as typeof Arrow;
export type { Arrow };
