import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

/**
 * The MCP SDK's JSON-schema validator (Ajv), made on first use. A `Client` or `Server` makes its own at construction
 * (a fresh Ajv with its formats: a quarter of starting an episode's environment), but uses it only for a tool's
 * `outputSchema` (client) or an elicitation's schema (server). Each client or server still gets its own instance,
 * so nothing compiled for one server is seen by another.
 */
export class LazySchemaValidator implements jsonSchemaValidator {
  private ajv: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.ajv ??= new AjvJsonSchemaValidator();
    return this.ajv.getValidator<T>(schema);
  }
}
