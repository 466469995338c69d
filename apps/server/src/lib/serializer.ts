import fastJson from 'fast-json-stringify';
import type { FastifyReply, FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type RouteSchema = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Response serialisation compiled once per route and status: the route's zod response schema (still
 * the single source of truth, and what OpenAPI is generated from) becomes a JSON Schema and then a
 * fast-json-stringify function. Per request that writes only the schema's fields (nothing else can
 * leak, as with the zod parse it replaces) without re-validating rows the server built itself.
 * A schema JSON Schema cannot express falls back to the zod serializer.
 */
export const compiledSerializerCompiler: FastifySerializerCompiler<RouteSchema['schema']> = (route) => {
  // Compiled on first use and shared by every route and status with the same schema object (the
  // error schema serves hundreds): start-up stays free of code generation.
  let stringify: ((data: unknown) => string) | undefined;
  return (data: unknown) => {
    stringify ??= forSchema(route);
    return stringify(data);
  };
};

const compiled = new WeakMap<object, (data: unknown) => string>();

function forSchema(route: Parameters<typeof compiledSerializerCompiler>[0]): (data: unknown) => string {
  const key = route.schema as object;
  let fn = compiled.get(key);
  if (!fn) {
    fn = compile(route.schema) ?? zodSerializerCompiler(route as RouteSchema);
    compiled.set(key, fn);
  }
  return fn;
}

function compile(schema: unknown): ((data: unknown) => string) | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  try {
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    const { $schema: _draft, ...rest } = json as Record<string, unknown>;
    return fastJson(rest as unknown as Parameters<typeof fastJson>[0]);
  } catch {
    return undefined;
  }
}

/**
 * Answers JSON text the database (or a one-time build) already wrote: a string with this type is
 * sent as is, skipping the response serialiser (the route's schema still documents it). A kept
 * answer is best kept as its UTF-8 bytes: sent without being encoded again on every request.
 */
export function sendJsonText(reply: FastifyReply, json: string | Buffer) {
  return reply.type('application/json; charset=utf-8').send(json as never);
}
