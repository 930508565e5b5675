import { readFileSync } from 'node:fs';

/**
 * CPU milliseconds (user + system) a process or thread has used so far, from its Linux /proc `stat` file (e.g.
 * `/proc/<pid>/stat`, `/proc/self/task/<tid>/stat`), at the kernel's 10 ms tick (USER_HZ is 100 on Linux).
 */
export function procStatCpuMs(statFile: string): number {
  // after the command name (which may hold spaces and parentheses: up to the last ") "), utime and stime are the
  // 12th and 13th fields (fields 14 and 15 of proc(5))
  const fields = readFileSync(statFile, 'utf8').replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
