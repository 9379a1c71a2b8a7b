import { chatError } from '../../../errors.ts';
import {
  BUILTIN_CHANNEL_TYPES,
  defaultConfig,
  type ChannelType,
  type ChannelTypeConfig,
  type Role,
} from '../channel-types.ts';
import type { ChatDeps } from '../deps.ts';
import type { JsonObject } from '../json.ts';
import { COMMAND_SETS, type ChannelTypeInput } from './schema.ts';

/** What each command expands to in a type's config (Stream's descriptions and arguments). */
const COMMANDS: Record<string, ChannelTypeConfig['commands'][number]> = {
  giphy: {
    name: 'giphy',
    description: 'Post a random gif to the channel',
    args: '[text]',
    set: 'fun_set',
  },
  ban: {
    name: 'ban',
    description: 'Ban a user',
    args: '[@username] [text]',
    set: 'moderation_set',
  },
  unban: { name: 'unban', description: 'Unban a user', args: '[@username]', set: 'moderation_set' },
  mute: { name: 'mute', description: 'Mute a user', args: '[@username]', set: 'moderation_set' },
  unmute: {
    name: 'unmute',
    description: 'Unmute a user',
    args: '[@username]',
    set: 'moderation_set',
  },
};

/** Keys of the input that are not config switches. */
const NOT_CONFIG = new Set([
  'name',
  'grants',
  'commands',
  'permissions',
  'client_id',
  'connection_id',
]);

export interface ChannelTypesService {
  list(appId: string): { channel_types: Record<string, JsonObject> };
  get(appId: string, name: string): JsonObject;
  create(appId: string, input: ChannelTypeInput): Promise<JsonObject>;
  update(appId: string, name: string, input: ChannelTypeInput): Promise<JsonObject>;
  remove(appId: string, name: string): Promise<void>;
}

export function commandsOf(names: readonly string[]): ChannelTypeConfig['commands'] {
  const expanded = new Set(names.flatMap((name) => COMMAND_SETS[name] ?? []));
  return [...expanded].map((name) => COMMANDS[name]!);
}

function configPatch(input: ChannelTypeInput): Partial<ChannelTypeConfig> {
  const patch: JsonObject = {};
  for (const [key, value] of Object.entries(input))
    if (!NOT_CONFIG.has(key) && value !== undefined) patch[key] = value;
  if (input.commands) patch.commands = commandsOf(input.commands);
  return patch as Partial<ChannelTypeConfig>;
}

/** Grants for the roles the input names replace those roles' grants; the other roles keep theirs. */
function mergeGrants(base: ChannelType['grants'], input: ChannelTypeInput): ChannelType['grants'] {
  return {
    ...base,
    ...((input.grants ?? {}) as Partial<Record<Role, ChannelType['grants'][Role]>>),
  };
}

/** GET shape: the config with commands as objects, plus grants and (v1) permissions. */
function getResponse(type: ChannelType): JsonObject {
  return {
    ...type.config,
    grants: { ...type.grants },
    permissions: [],
    created_at: type.created_at ?? null,
    updated_at: type.updated_at ?? null,
  } as JsonObject;
}

/** Create and update shape: as GET, but commands as names (as the request sent them). */
function writeResponse(type: ChannelType): JsonObject {
  return { ...getResponse(type), commands: type.config.commands.map((command) => command.name) };
}

export function createChannelTypesService(deps: ChatDeps): ChannelTypesService {
  const store = deps.channelTypes;

  function existing(appId: string, name: string): ChannelType {
    const type = store.get(appId, name);
    if (!type) throw chatError.notFound(`channel type "${name}" does not exist`);
    return type;
  }

  return {
    list(appId) {
      const channelTypes: Record<string, JsonObject> = {};
      for (const type of store.list(appId)) channelTypes[type.name] = getResponse(type);
      return { channel_types: channelTypes };
    },

    get: (appId, name) => getResponse(existing(appId, name)),

    async create(appId, input) {
      const name = input.name!;
      if (store.get(appId, name)) throw chatError.input(`channel type "${name}" already exists`);
      const now = deps.clock.now();
      // A new type starts from the messaging defaults, as on Stream, and no commands unless asked for.
      const template = BUILTIN_CHANNEL_TYPES.messaging!;
      const type: ChannelType = {
        name,
        config: { ...defaultConfig(name), ...configPatch(input), name },
        grants: mergeGrants(template.grants, input),
        created_at: now,
        updated_at: now,
      };
      if (!(await store.save(appId, type, 'create')))
        throw chatError.input(`channel type "${name}" already exists`);
      return writeResponse(existing(appId, name));
    },

    async update(appId, name, input) {
      const current = existing(appId, name);
      const type: ChannelType = {
        name,
        config: { ...current.config, ...configPatch(input), name },
        grants: mergeGrants(current.grants, input),
        created_at: current.created_at,
        updated_at: deps.clock.now(),
      };
      if (!(await store.save(appId, type, 'update')))
        throw chatError.notFound(`channel type "${name}" does not exist`);
      return writeResponse(existing(appId, name));
    },

    async remove(appId, name) {
      existing(appId, name);
      if (Object.prototype.hasOwnProperty.call(BUILTIN_CHANNEL_TYPES, name))
        throw chatError.input(`channel type "${name}" is built in and cannot be deleted`);
      if (await store.inUse(appId, name))
        throw chatError.input(
          `channel type "${name}" has channels: delete them before deleting the type`,
        );
      await store.remove(appId, name);
    },
  };
}
