import { z } from 'zod';
import { ChatError } from '../errors.ts';
import { parseJsonInput } from '../chat/core/json.ts';

/*
 * Building blocks of the route schemas (see route.ts). They type the fields the stream-chat client sends and leave
 * ranges, ids and permissions to the services, which name them in their own errors. Objects are loose: Stream lets
 * messages, channels, users and most requests carry custom fields, and the client sends read-only fields back.
 */

/** Any JSON object: custom data, filters, option bags. */
export const jsonObject = z.record(z.string(), z.unknown());

/** A JSON object whose named fields are typed and whose other (custom) fields pass through. */
export const loose = z.looseObject;

/** A query string or body without fields of its own (the client still adds `api_key`, `user_id`, …). */
export const noFields = z.looseObject({});

export const channelParams = z.object({ type: z.string(), id: z.string() });
export const idParams = z.object({ id: z.string() });

/** `[{field, direction}]` as stream-chat sends it, or the `{field: 1}` shorthand. */
export const sort = z.union([z.array(jsonObject), jsonObject]).nullish();
export const filter = jsonObject.nullish();
/** Paging numbers; their ranges are checked by the services (query/bounds.ts), which name the range. */
export const pageNumber = z.number().nullish();
/** The opaque `next`/`prev` cursors the server handed out. */
export const cursor = z.string().nullish();
export const optionalString = z.string().nullish();
export const optionalBoolean = z.boolean().nullish();
export const stringList = z.array(z.string());

/** A plain query-string value (a repeated key would be an array, which no client sends). */
export const queryValue = z.string().optional();
/** A query-string numeral such as `?limit=25`; empty means absent. */
export const queryNumeral = z
  .string()
  .regex(/^(-?\d{1,16})?$/, { error: 'must be a number' })
  .optional();

/**
 * A query-string value holding JSON (`?sort=[…]`), decoded with the same limits as every JSON input and then
 * checked against `schema`.
 */
export function queryJsonValue<S extends z.ZodType>(name: string, schema: S) {
  return z
    .string()
    .transform((text, context): unknown => {
      try {
        return parseJsonInput(text, name);
      } catch (error) {
        // parseJsonInput's message already names the field ("sort must be valid JSON").
        const message = error instanceof ChatError ? error.message : `${name} must be valid JSON`;
        context.addIssue({ code: 'custom', message: message.slice(name.length + 1) });
        return z.NEVER;
      }
    })
    .pipe(schema)
    .optional();
}

/** Members as the client names them: a user id, or `{user_id | user: {id}, channel_role?}`. */
export const memberList = z
  .array(
    z.union([
      z.string(),
      z.looseObject({
        user_id: z.string().nullish(),
        user: z.looseObject({ id: z.string().nullish() }).nullish(),
        channel_role: z.string().nullish(),
      }),
    ]),
  )
  .nullish();

/** `{set, unset}` partial updates of channels, members, messages, threads and polls. */
export const partialUpdate = {
  set: jsonObject.nullish(),
  unset: z.array(z.string()).nullish(),
};

/** Query values that are JSON (`sort`, `payload`) beside plain strings, as GET threads and replies carry them. */
export function jsonQuery<S extends z.ZodRawShape>(fields: S) {
  return z.looseObject({
    sort: queryJsonValue('sort', sort),
    payload: queryJsonValue('payload', z.unknown()),
    ...fields,
  });
}

/**
 * A message as channel.sendMessage / client.updateMessage send it. updateMessage sends the whole local message back,
 * read-only fields included, so everything untyped here passes through for the service to ignore or keep as custom
 * data.
 */
export const messageInput = z.looseObject({
  id: z.string().nullish(),
  text: z.string().nullish(),
  type: z.string().nullish(),
  attachments: z.array(jsonObject).nullish(),
  mentioned_users: z.array(z.union([z.string(), z.looseObject({ id: z.string() })])).nullish(),
  parent_id: z.string().nullish(),
  quoted_message_id: z.string().nullish(),
  show_in_channel: z.boolean().nullish(),
  pinned: z.boolean().nullish(),
  silent: z.boolean().nullish(),
  poll_id: z.string().nullish(),
  user_id: z.string().nullish(),
  user: z.looseObject({ id: z.string().nullish() }).nullish(),
});
