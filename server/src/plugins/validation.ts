import AjvCompiler, { type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';

/**
 * Options shared by both validators. removeAdditional drops unknown and read-only fields instead
 * of storing them; useDefaults fills in what a schema defaults.
 *
 * strictNumbers off: with ajv's default (true), "Infinity" or "1e400" in a query is coerced to
 * Infinity and then skips the field's minimum and maximum; without it the range refuses it. Every
 * number a request may carry has a range (the attack tests send Infinity to each one).
 */
const shared = { removeAdditional: true, useDefaults: true, allErrors: false, strictNumbers: false } as const;

/**
 * A JSON body is typed, so a value of the wrong type is refused (400 naming the field), never
 * converted: with coercion `{"enabled": null}` became `false` and disabled a user, and
 * `{"typeName": 95851336}` was stored as text. Query strings and path parameters are text by
 * nature and keep being parsed by their schema ("2" → 2, one value → an array of one).
 */
export const validatorOptions: Pick<FastifyServerOptions, 'ajv' | 'schemaController'> = {
  ajv: { customOptions: { ...shared, coerceTypes: 'array' } },
  schemaController: {
    compilersFactory: {
      // Fastify calls the compiler it gets with the route's schema definition (httpPart among
      // it); the package's types say it takes the bare schema, hence the cast.
      buildValidator: ((...[externalSchemas, ajvOptions]: Parameters<BuildCompilerFromPool>) => {
        const compilers = AjvCompiler();
        const options = ajvOptions ?? {};
        const forText = compilers(externalSchemas, options);
        const forJson = compilers(externalSchemas, {
          ...options,
          customOptions: { ...options.customOptions, coerceTypes: false },
        } as typeof options);
        return (route: FastifyRouteSchemaDef<unknown>) => (route.httpPart === 'body' ? forJson : forText)(route as never);
      }) as unknown as BuildCompilerFromPool,
      // Fastify's own serializer compiler, asked for a route's serializer when that route first
      // answers instead of for every route and status at start: a start (and each test's app)
      // compiled a few hundred serializers that most never use (bench/NOTES.md).
      buildSerializer: (externalSchemas, serializerOptions) => {
        const compile = SerializerSelector()(externalSchemas, serializerOptions);
        return (route) => {
          let serialize: ((doc: unknown) => string) | undefined;
          return (doc) => {
            serialize ??= compile(route);
            return serialize(doc);
          };
        };
      },
    },
  },
};
