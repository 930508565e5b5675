// `npm run bench -- <group>`: runs test/bench/<group>.bench.ts (or every group for `all`), prints its figures
// and merges them into bench-results.json as { "<group>.<metric>": number, cores, node }.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What a benchmark group module exports. */
export interface BenchGroup {
  run(): Promise<Record<string, number>>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const resultsPath = path.resolve(here, '../../bench-results.json');

async function groups(): Promise<string[]> {
  return (await readdir(here)).filter((file) => file.endsWith('.bench.ts')).map((file) => file.replace(/\.bench\.ts$/, '')).sort();
}

async function main(): Promise<void> {
  const requested = process.argv[2];
  const available = await groups();
  if (!requested || (requested !== 'all' && !available.includes(requested))) {
    process.stderr.write(`usage: npm run bench -- <group|all>\ngroups: ${available.join(', ')}\n`);
    process.exit(2);
  }
  const selected = requested === 'all' ? available : [requested];
  let results: Record<string, number | string> = {};
  try {
    results = JSON.parse(await readFile(resultsPath, 'utf8')) as Record<string, number | string>;
  } catch {
    // first run: no file yet
  }
  for (const group of selected) {
    const module = (await import(path.join(here, `${group}.bench.ts`))) as BenchGroup;
    const figures = await module.run();
    console.log(`\n${group}`);
    for (const [metric, value] of Object.entries(figures)) {
      console.log(`  ${`${group}.${metric}`.padEnd(40)} ${Number.isInteger(value) ? value : value.toFixed(4)}`);
      results[`${group}.${metric}`] = value;
    }
  }
  results.cores = os.cpus().length;
  results.node = process.version;
  await writeFile(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nmerged into ${path.relative(process.cwd(), resultsPath)}`);
}

await main();
