import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { JsonObject } from '../../core/json.ts';
import { compileBlocklist, foldedEntry, type BlocklistMatcher } from './blocklist-matcher.ts';
import type { BlocklistRow, BlocklistsRepo } from './blocklists-repo.ts';
import { requireServer } from './moderator.ts';

// Stream's limits: 15 lists per app, 40 characters per word. Stream takes 10,000 words per list; the server's JSON
// limit of 1,000 items per array (core/json.ts) caps ours at 1,000.
export const MAX_BLOCKLISTS = 15;
export const MAX_BLOCKLIST_WORDS = 1000;
export const MAX_WORD_LENGTH = 40;
const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface BlocklistsService {
  create(actor: Actor, body: JsonObject): Promise<JsonObject>;
  list(actor: Actor): Promise<JsonObject>;
  get(actor: Actor, name: string): Promise<JsonObject>;
  update(actor: Actor, name: string, body: JsonObject): Promise<JsonObject>;
  remove(actor: Actor, name: string): Promise<JsonObject>;
  /** The compiled list, or undefined when the app has no list of that name. */
  matcher(appId: string, name: string): Promise<BlocklistMatcher | undefined>;
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !NAME_PATTERN.test(name))
    throw chatError.input('name must be 1 to 64 letters, digits, "-" or "_"');
  return name;
}

/** Lowercase, trimmed, deduplicated words within Stream's limits. */
function checkWords(words: unknown): string[] {
  if (!Array.isArray(words)) throw chatError.input('words must be a list of words');
  if (words.length > MAX_BLOCKLIST_WORDS)
    throw chatError.input(`words must hold at most ${MAX_BLOCKLIST_WORDS} words`);
  const kept = new Set<string>();
  for (const [index, word] of words.entries()) {
    if (typeof word !== 'string') throw chatError.input(`words[${index}] must be a string`);
    const clean = word.trim().toLowerCase();
    if ([...clean].length > MAX_WORD_LENGTH)
      throw chatError.input(`words[${index}] is longer than ${MAX_WORD_LENGTH} characters`);
    if (foldedEntry(clean) === '')
      throw chatError.input(`words[${index}] must contain a letter or a digit`);
    kept.add(clean);
  }
  return [...kept];
}

function response(row: BlocklistRow): JsonObject {
  return {
    name: row.name,
    type: row.type,
    words: JSON.parse(row.words) as string[],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The app's word block lists (server-side only, as on Stream), and their compiled copies for the send path: a list
 * is compiled once and recompiled only when its `updated_at` moves, so a 1,000-word list costs a primary-key read and
 * a few set lookups per message.
 */
export function createBlocklistsService(deps: ChatDeps, repo: BlocklistsRepo): BlocklistsService {
  const compiled = new Map<string, { version: string; matcher: BlocklistMatcher }>();
  const existing = async (appId: string, name: string) => {
    const row = await repo.get(appId, checkName(name));
    if (!row) throw chatError.notFound(`blocklist ${name} does not exist`);
    return row;
  };
  return {
    async create(actor, body) {
      requireServer(actor, 'creating a blocklist');
      const name = checkName(body.name);
      const words = checkWords(body.words);
      if (body.type !== undefined && body.type !== null && body.type !== 'word')
        throw chatError.input('type must be "word"');
      if ((await repo.count(actor.appId)) >= MAX_BLOCKLISTS)
        throw chatError.input(`an app may have at most ${MAX_BLOCKLISTS} blocklists`);
      const now = deps.clock.now();
      const row = {
        app_id: actor.appId,
        name,
        type: 'word',
        words: JSON.stringify(words),
        created_at: now,
        updated_at: now,
      };
      if (!(await repo.create(row))) throw chatError.input(`blocklist ${name} already exists`);
      return { blocklist: response(row) };
    },
    async list(actor) {
      requireServer(actor, 'listing blocklists');
      return { blocklists: (await repo.list(actor.appId)).map(response) };
    },
    async get(actor, name) {
      requireServer(actor, 'reading a blocklist');
      return { blocklist: response(await existing(actor.appId, name)) };
    },
    async update(actor, name, body) {
      requireServer(actor, 'updating a blocklist');
      const words = checkWords(body.words);
      await existing(actor.appId, name);
      await repo.update(actor.appId, name, JSON.stringify(words), deps.clock.now());
      compiled.delete(`${actor.appId}\u0000${name}`);
      return { blocklist: response(await existing(actor.appId, name)) };
    },
    async remove(actor, name) {
      requireServer(actor, 'deleting a blocklist');
      if (!(await repo.remove(actor.appId, checkName(name))))
        throw chatError.notFound(`blocklist ${name} does not exist`);
      compiled.delete(`${actor.appId}\u0000${name}`);
      return {};
    },
    async matcher(appId, name) {
      const key = `${appId}\u0000${name}`;
      const version = await repo.version(appId, name);
      if (version === undefined) return undefined;
      const cached = compiled.get(key);
      if (cached?.version === version) return cached.matcher;
      const row = await repo.get(appId, name);
      if (!row) return undefined;
      const matcher = compileBlocklist(JSON.parse(row.words) as string[]);
      compiled.set(key, { version: row.updated_at, matcher });
      return matcher;
    },
  };
}
