import { chatError } from '../../../errors.ts';
import { boundedInt } from '../../core/query/bounds.ts';
import { isPlainObject, pickCustom, type JsonObject } from '../../core/json.ts';

export const POLL_RESERVED = new Set([
  'id',
  'name',
  'description',
  'voting_visibility',
  'enforce_unique_vote',
  'max_votes_allowed',
  'allow_answers',
  'allow_user_suggested_options',
  'is_closed',
  'options',
  'user_id',
  'user',
  'created_by_id',
  'created_by',
  'created_at',
  'updated_at',
  'vote_count',
  'vote_counts_by_option',
  'latest_votes_by_option',
  'answers_count',
  'latest_answers',
  'own_votes',
  'custom',
  'message_id',
  'cid',
]);

export const OPTION_RESERVED = new Set([
  'id',
  'poll_id',
  'text',
  'position',
  'vote_count',
  'votes',
  'user_id',
  'user',
  'created_at',
  'updated_at',
  'custom',
]);

/** Options beyond this are refused (the client stops suggesting at 100 too). */
export const MAX_OPTIONS = 100;
const ID_PATTERN = /^[\w:.!@-]{1,255}$/;
const NAME_MAX = 255;
const TEXT_MAX = 255;
const DESCRIPTION_MAX = 1024;
const ANSWER_MAX = 1024;

/** The settable poll fields, validated; only the keys present in the input. */
export interface PollFields {
  name?: string;
  description?: string;
  voting_visibility?: 'public' | 'anonymous';
  enforce_unique_vote?: boolean;
  max_votes_allowed?: number | null;
  allow_answers?: boolean;
  allow_user_suggested_options?: boolean;
  is_closed?: boolean;
}

function bool(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw chatError.input(`${name} must be a boolean`);
  return value;
}

export function readId(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !ID_PATTERN.test(value))
    throw chatError.input(`${what} has an invalid format`);
  return value;
}

export function readText(value: unknown, name: string, max = TEXT_MAX): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw chatError.input(`${name} is required`);
  if ([...value].length > max) throw chatError.input(`${name} must be at most ${max} characters`);
  return value;
}

export function readAnswer(value: unknown): string {
  return readText(value, 'vote.answer_text', ANSWER_MAX);
}

/** Reads the poll fields present in `input` (a create body, an update body or a partial `set`). */
export function readPollFields(input: JsonObject): PollFields {
  const fields: PollFields = {};
  if (input.name !== undefined) fields.name = readText(input.name, 'name', NAME_MAX);
  if (input.description !== undefined && input.description !== null) {
    if (typeof input.description !== 'string')
      throw chatError.input('description must be a string');
    if ([...input.description].length > DESCRIPTION_MAX)
      throw chatError.input(`description must be at most ${DESCRIPTION_MAX} characters`);
    fields.description = input.description;
  }
  if (input.voting_visibility !== undefined && input.voting_visibility !== null) {
    if (input.voting_visibility !== 'public' && input.voting_visibility !== 'anonymous')
      throw chatError.input('voting_visibility must be public or anonymous');
    fields.voting_visibility = input.voting_visibility;
  }
  for (const key of [
    'enforce_unique_vote',
    'allow_answers',
    'allow_user_suggested_options',
    'is_closed',
  ] as const) {
    if (input[key] !== undefined && input[key] !== null) fields[key] = bool(input[key], key);
  }
  if (input.max_votes_allowed !== undefined) {
    const max = input.max_votes_allowed;
    if (max === null || max === 0) fields.max_votes_allowed = null;
    else if (typeof max !== 'number' || !Number.isInteger(max) || max < 2 || max > 10)
      throw chatError.input('max_votes_allowed must be a number from 2 to 10');
    else fields.max_votes_allowed = max;
  }
  return fields;
}

/** A poll may not both enforce a unique vote and allow several votes. */
export function checkVoteRules(enforceUnique: boolean, maxVotes: number | null): void {
  if (enforceUnique && maxVotes !== null)
    throw chatError.input('max_votes_allowed cannot be set when enforce_unique_vote is true');
}

export function readCustom(input: JsonObject, reserved: ReadonlySet<string>, what: string) {
  const nested = isPlainObject(input.custom) ? input.custom : {};
  return { ...nested, ...pickCustom(input, reserved, what) };
}

export interface OptionInput {
  id?: string;
  text: string;
  position?: number;
  custom: JsonObject;
}

export function readOption(input: unknown, name: string): OptionInput {
  if (!isPlainObject(input)) throw chatError.input(`${name} must be an object`);
  const option: OptionInput = {
    text: readText(input.text, `${name}.text`),
    custom: readCustom(input, OPTION_RESERVED, 'poll option'),
  };
  const id = readId(input.id, `${name}.id`);
  if (id) option.id = id;
  if (input.position !== undefined && input.position !== null) {
    // Stored in a 32-bit integer column.
    option.position = boundedInt(input.position, `${name}.position`, {
      min: -2_147_483_648,
      max: 2_147_483_647,
      fallback: 0,
    });
  }
  return option;
}

export function readOptions(value: unknown): OptionInput[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw chatError.input('options must be an array');
  if (value.length > MAX_OPTIONS)
    throw chatError.input(`a poll can have at most ${MAX_OPTIONS} options`);
  const options = value.map((item, index) => readOption(item, `options[${index}]`));
  assertDistinctTexts(options.map((o) => o.text));
  return options;
}

export function assertDistinctTexts(texts: readonly string[]): void {
  const seen = new Set<string>();
  for (const text of texts) {
    const key = text.trim().toLowerCase();
    if (seen.has(key)) throw chatError.input(`poll option "${text}" is duplicated`);
    seen.add(key);
  }
}
