import { chatError } from '../../../errors.ts';
import { isPlainObject, pickCustom, type JsonObject } from '../../core/json.ts';

/** Keys of a draft message that are not custom data (server-owned ones the client may echo are dropped). */
const RESERVED = new Set([
  'id',
  'text',
  'html',
  'mml',
  'type',
  'attachments',
  'mentioned_users',
  'mentioned_channel',
  'mentioned_here',
  'mentioned_roles',
  'mentioned_group_ids',
  'parent_id',
  'poll_id',
  'quoted_message_id',
  'show_in_channel',
  'silent',
  'shared_location',
  'custom',
  'user',
  'user_id',
  'cid',
  'created_at',
  'updated_at',
  'deleted_at',
  'quoted_message',
  'poll',
  'localMetadata',
]);

const ID_PATTERN = /^[\w:.!@-]{1,255}$/;
const MAX_ATTACHMENTS = 30;

export interface DraftInput {
  message: JsonObject;
  parentId: string;
  quotedId: string | null;
  pollId: string | null;
}

function optionalId(value: unknown, name: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !ID_PATTERN.test(value))
    throw chatError.input(`${name} has an invalid format`);
  return value;
}

function optionalBool(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw chatError.input(`${name} must be a boolean`);
  return value;
}

/** Validates the composer's draft payload and keeps the DraftMessage fields in a stable shape. */
export function readDraft(input: unknown, maxTextLength: number): DraftInput {
  if (!isPlainObject(input)) throw chatError.input('message is required');
  const id = optionalId(input.id, 'message.id') ?? crypto.randomUUID();
  const text = input.text ?? '';
  if (typeof text !== 'string') throw chatError.input('message.text must be a string');
  if ([...text].length > maxTextLength)
    throw chatError.input(`message.text must be at most ${maxTextLength} characters`);
  let attachments: JsonObject[] | undefined;
  if (input.attachments !== undefined && input.attachments !== null) {
    if (!Array.isArray(input.attachments) || input.attachments.some((a) => !isPlainObject(a)))
      throw chatError.input('message.attachments must be a list of objects');
    if (input.attachments.length > MAX_ATTACHMENTS)
      throw chatError.input(`a draft can have at most ${MAX_ATTACHMENTS} attachments`);
    attachments = (input.attachments as JsonObject[]).map(
      ({ localMetadata: _local, ...rest }) => rest,
    );
  }
  let mentioned: string[] | undefined;
  if (input.mentioned_users !== undefined && input.mentioned_users !== null) {
    if (!Array.isArray(input.mentioned_users))
      throw chatError.input('message.mentioned_users must be a list of user ids');
    mentioned = input.mentioned_users.map((entry) => {
      if (typeof entry === 'string') return entry;
      if (isPlainObject(entry) && typeof entry.id === 'string') return entry.id;
      throw chatError.input('message.mentioned_users must be a list of user ids');
    });
  }
  const parentId = optionalId(input.parent_id, 'message.parent_id');
  const quotedId = optionalId(input.quoted_message_id, 'message.quoted_message_id');
  const pollId = optionalId(input.poll_id, 'message.poll_id');
  const nested = isPlainObject(input.custom) ? input.custom : {};
  const custom = { ...nested, ...pickCustom(input, RESERVED, 'draft') };
  const message: JsonObject = {
    ...custom,
    id,
    text,
    attachments,
    mentioned_users: mentioned,
    parent_id: parentId ?? undefined,
    quoted_message_id: quotedId ?? undefined,
    poll_id: pollId ?? undefined,
    show_in_channel: optionalBool(input.show_in_channel, 'message.show_in_channel'),
    silent: optionalBool(input.silent, 'message.silent'),
  };
  for (const key of Object.keys(message)) if (message[key] === undefined) delete message[key];
  return { message, parentId: parentId ?? '', quotedId, pollId };
}
