import { expect, it } from 'vitest';
import { parseHttpAddress } from '../../../mcp-servers/transport/index.ts';

it('parses HOST:PORT, PORT and bracketed IPv6, and rejects the rest', () => {
  expect(parseHttpAddress('127.0.0.1:3000')).toEqual({ host: '127.0.0.1', port: 3000 });
  expect(parseHttpAddress('8080')).toEqual({ host: '127.0.0.1', port: 8080 });
  expect(parseHttpAddress('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
  expect(() => parseHttpAddress('localhost')).toThrow(expect.objectContaining({ name: 'UsageError', message: expect.stringMatching(/HOST:PORT/) }));
  expect(() => parseHttpAddress('127.0.0.1:99999')).toThrow(/HOST:PORT/);
});
