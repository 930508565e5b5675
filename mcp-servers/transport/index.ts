export { serveHttp } from './serve-http.ts';
export type { HttpServing, ServeHttpOptions, SessionServerFactory } from './serve-http.ts';
export { parseHttpAddress } from './parse-http-address.ts';
export { DEFAULT_MAX_SESSIONS, requireTokenBeyondLoopback } from './limits.ts';
export { serveStdio } from './serve-stdio.ts';
export { integerFlag, programUsage, runServerBin, serveProgram, type OpenedProgram, type ProgramOption, type ServerProgram } from './server-program.ts';
