// The one place LanceDB is imported from. Lance sizes its thread pools from LANCE_CPU_THREADS when the native
// module starts; with the default, an FTS index build hung on a 2-core machine and 8 threads worked (issue 6).
// This module's body runs before '@lancedb/lancedb' is evaluated because it is imported first below.
import './lance-threads.ts';

export * as lancedb from '@lancedb/lancedb';
