export { serveHttp } from './serve-http.ts';
export type { HttpServing, ServeHttpOptions, ServerFactory } from './serve-http.ts';
export { parseHttpAddress } from './parse-http-address.ts';
export { serveStdio } from './serve-stdio.ts';
