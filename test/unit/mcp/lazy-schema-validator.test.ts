import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectServer } from '../../../src/mcp/connect-server.ts';
import { LazySchemaValidator } from '../../../src/mcp/for-servers/lazy-schema-validator.ts';

describe('the MCP clients\' schema validator, made on first use', () => {
  it('validates as the SDK\'s Ajv validator does (JSON Schema: type, required, minimum)', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] } as const;
    const validate = new LazySchemaValidator().getValidator(schema);
    expect(validate({ n: 2 }).valid).toBe(true);
    expect(validate({ n: 0 }).valid).toBe(false); // below `minimum`
    expect(validate({}).valid).toBe(false); // `required` missing
    expect(validate({ n: 1.5 }).valid).toBe(false); // not an `integer`
  });

  it('keeps one instance per client: two servers may give different schemas the same $id', () => {
    const first = new LazySchemaValidator().getValidator({ $id: 'https://example.com/out.json', type: 'string' });
    const second = new LazySchemaValidator().getValidator({ $id: 'https://example.com/out.json', type: 'number' });
    expect(first('a').valid).toBe(true);
    expect(second('a').valid).toBe(false);
    expect(second(1).valid).toBe(true);
  });

  it('a tool result that breaks its outputSchema is still refused over a real connection', async () => {
    const server = new McpServer({ name: 'out', version: '1.0.0' });
    server.registerTool('count', { outputSchema: { n: z.number() } }, async () => ({
      content: [{ type: 'text', text: '{"n":"many"}' }],
      structuredContent: { n: 'many' },
    }));
    const connection = await connectServer('out', { kind: 'in-memory', server });
    try {
      const outcome = await connection.callTool('count', {}, { timeoutMs: 5_000, maxBytes: 10_000 });
      // The MCP rule: structured content must match the tool's outputSchema, or the client rejects the result.
      expect(outcome.isError).toBe(true);
      expect(outcome.content).toMatch(/output schema|structured content/i);
    } finally {
      await connection.close();
    }
  });
});
