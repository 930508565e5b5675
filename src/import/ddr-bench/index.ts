export { importDdrBench, ddrBenchTaskId, ENTITY_COLUMN } from './import-ddr-bench.ts';
