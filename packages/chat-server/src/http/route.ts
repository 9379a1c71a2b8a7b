import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
  RouteOptions,
} from 'fastify';
import type { z } from 'zod';
import { JsonText } from '../chat/core/json.ts';
import { chatError, formatDuration, type ChatError } from '../errors.ts';
import { settlingPublishes } from '../pubsub/settle.ts';
import { payloadOf } from './params.ts';

/**
 * Every chat endpoint declares the shape of what it reads: path parameters, the query string (plain strings),
 * the `?payload=<JSON>` GET endpoints carry, and the JSON body. `defineRoute` parses each declared part before the
 * handler runs and answers a mismatch with Stream's code 4 naming the field, so handlers and services receive typed
 * values and a wrong type can never surface as a 500.
 */
export interface RouteSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  payload?: z.ZodType;
  body?: z.ZodType;
  /** The body is multipart/form-data, read as a stream by the handler (uploads); it has no JSON schema. */
  multipart?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by defineRoute, so every registered route's input shapes can be enumerated (tests read them). */
    schemas?: RouteSchemas;
  }
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<P, Q, Y, B> {
  params: Out<P>;
  query: Out<Q>;
  payload: Out<Y>;
  body: Out<B>;
}

export interface RouteSpec<P, Q, Y, B> {
  method: HTTPMethods;
  url: string;
  params?: P;
  query?: Q;
  payload?: Y;
  body?: B;
  multipart?: boolean;
  config?: FastifyContextConfig;
  handler: (
    input: RouteInput<P, Q, Y, B>,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<unknown>;
}

/** The schemas a route registered through defineRoute declared; undefined for any other route. */
export function routeSchemasOf(route: Pick<RouteOptions, 'config'>): RouteSchemas | undefined {
  return (route.config as FastifyContextConfig | undefined)?.schemas;
}

export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  Y extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(app: FastifyInstance, spec: RouteSpec<P, Q, Y, B>): void {
  const schemas: RouteSchemas = {
    params: spec.params,
    query: spec.query,
    payload: spec.payload,
    body: spec.body,
    multipart: spec.multipart,
  };
  app.route({
    method: spec.method,
    url: spec.url,
    config: { ...spec.config, schemas },
    handler: async (request, reply) => {
      const input = {
        params: parsePart(spec.params, request.params, 'the path'),
        query: parsePart(spec.query, request.query ?? {}, 'the query string'),
        payload: spec.payload
          ? parsePart(spec.payload, payloadOf(request.query), 'payload')
          : undefined,
        body: parsePart(spec.body, absentAsEmpty(request.body), 'the request body'),
      } as RouteInput<P, Q, Y, B>;
      const result = await settlingPublishes(() => spec.handler(input, request, reply));
      if (!(result instanceof JsonText)) return result;
      // Already serialised, so the preSerialization hook that adds `duration` to objects does not run.
      void reply.type('application/json; charset=utf-8');
      return result.with('duration', formatDuration(reply.elapsedTime));
    },
  });
}

/** An absent body reads as `{}`, as Stream treats a POST without one. */
function absentAsEmpty(body: unknown): unknown {
  return body === undefined || body === null || body === '' ? {} : body;
}

function parsePart(schema: z.ZodType | undefined, value: unknown, whole: string): unknown {
  return schema ? parseInput(schema, value, whole) : undefined;
}

/**
 * The parsed input, or Stream's code 4 naming what is wrong. The error needs zod's `reportInput` (a missing field
 * and a wrong type differ only by the input), but that option takes zod off its compiled path for objects: a valid
 * request's parse then cost several times more. So input is parsed plainly, and only invalid input a second time
 * for the message.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  whole: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const reported = schema.safeParse(value, { reportInput: true });
  throw inputErrorOf(reported.error ?? result.error, whole);
}

/**
 * Stream's code 4 for the first problem zod found, naming the field as Stream does (`channel.members[2] must be a
 * string`). `whole` names the part itself when the problem is at its root (`the request body must be a JSON
 * object`).
 */
export function inputErrorOf(error: z.ZodError, whole = 'the request body'): ChatError {
  const issue = error.issues[0];
  if (!issue) return chatError.input(`${whole} is not valid`);
  const path = fieldPath(issue.path);
  return chatError.input(`${path || whole} ${problemOf(issue, path === '')}`);
}

/** `['channel', 'members', 2]` → `channel.members[2]`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text ? `.${String(segment)}` : String(segment);
  }
  return text;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  record: 'an object',
};

function typeName(expected: string, atRoot: boolean): string {
  if (atRoot && (expected === 'object' || expected === 'record')) return 'a JSON object';
  return TYPE_NAMES[expected] ?? expected;
}

/** zod's own messages start so; a schema's own message (`{ error: 'is required' }`) is used as written. */
const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized)/;

function problemOf(issue: z.core.$ZodIssue, atRoot: boolean): string {
  if (!ZOD_DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      // zod reports the input only when there was one: without it, the field was missing.
      if (!('input' in issue) || issue.input === undefined) return 'is required';
      return `must be ${typeName(issue.expected, atRoot)}`;
    case 'invalid_union': {
      const expected = issue.errors.flatMap((branch) =>
        branch.filter((inner) => inner.path.length === 0 && inner.code === 'invalid_type'),
      );
      const names = [
        ...new Set(
          expected.map((inner) => typeName((inner as { expected: string }).expected, atRoot)),
        ),
      ];
      return names.length > 0 ? `must be ${names.join(' or ')}` : 'is not valid';
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_small':
      return issue.origin === 'array' || issue.origin === 'set'
        ? `must have at least ${String(issue.minimum)} items`
        : issue.origin === 'string'
          ? `must be at least ${String(issue.minimum)} characters`
          : `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return issue.origin === 'array' || issue.origin === 'set'
        ? `must have at most ${String(issue.maximum)} items`
        : issue.origin === 'string'
          ? `must be at most ${String(issue.maximum)} characters`
          : `must be at most ${String(issue.maximum)}`;
    default:
      return 'is not valid';
  }
}
