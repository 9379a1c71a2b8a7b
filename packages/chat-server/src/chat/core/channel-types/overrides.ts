import { z } from 'zod';
import { chatError } from '../../../errors.ts';
import {
  type ChannelType,
  type ChannelTypeLookup,
  type Permission,
  type Role,
} from '../channel-types.ts';
import { fields, grantsOf, permission } from './schema.ts';
import { commandsOf } from './service.ts';

/*
 * Channel-level settings (`config_overrides`, set server-side with a channel update): a channel may change some of its
 * type's settings without changing the other channels of the type. The list is Stream's; what is not overridden
 * follows the type, also when the type changes later.
 */

const SWITCHES = [
  'typing_events',
  'reactions',
  'replies',
  'quotes',
  'uploads',
  'url_enrichment',
  'shared_locations',
  'count_messages',
  'user_message_reminders',
] as const;

/** `create-message` grants it, `!create-message` takes it away; roles not named keep the type's grants. */
const grantModifier = z.string().transform((value, ctx) => {
  const removes = value.startsWith('!');
  const parsed = permission.safeParse(removes ? value.slice(1) : value);
  if (!parsed.success) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a known permission` });
    return z.NEVER;
  }
  return `${removes ? '!' : ''}${parsed.data}`;
});

const overridesSchema = z.strictObject({
  ...Object.fromEntries(SWITCHES.map((key) => [key, z.boolean().optional()])),
  max_message_length: fields.max_message_length.optional(),
  blocklist: fields.blocklist.optional(),
  blocklist_behavior: fields.blocklist_behavior.optional(),
  commands: fields.commands.optional(),
  grants: grantsOf(grantModifier).optional(),
});

type Overrides = z.output<typeof overridesSchema>;

/**
 * The overrides a channel update sets, checked, as stored: null for none (`null` or `{}`). An unknown setting is
 * refused with code 4 naming it, as for channel types.
 */
export function readConfigOverrides(value: unknown): string | null {
  if (value === null) return null;
  const parsed = overridesSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length
      ? `config_overrides.${issue.path.join('.')}`
      : 'config_overrides';
    throw chatError.input(
      issue?.code === 'unrecognized_keys'
        ? `config_overrides: ${issue.keys.join(', ')} cannot be overridden for a channel`
        : `${where}: ${issue?.message ?? 'is not valid'}`,
    );
  }
  const set = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  return Object.keys(set).length === 0 ? null : JSON.stringify(set);
}

function applyGrants(
  base: ChannelType['grants'],
  modifiers: NonNullable<Overrides['grants']>,
): ChannelType['grants'] {
  const grants = { ...base };
  for (const [role, list] of Object.entries(modifiers) as [Role, string[]][]) {
    const granted = new Set<string>(base[role] ?? []);
    for (const modifier of list)
      if (modifier.startsWith('!')) granted.delete(modifier.slice(1));
      else granted.add(modifier);
    grants[role] = [...granted] as Permission[];
  }
  return grants;
}

function derive(type: ChannelType, stored: string): ChannelType {
  const { grants, commands, ...settings } = JSON.parse(stored) as Overrides;
  return {
    ...type,
    config: {
      ...type.config,
      ...settings,
      ...(commands ? { commands: commandsOf(commands) } : {}),
    },
    grants: grants ? applyGrants(type.grants, grants) : type.grants,
  };
}

// Channels with the same overrides share one derived type, built once per version of their type; every access to
// such a channel (reads, sends, the config in its events) looks it up here.
const derived = new WeakMap<ChannelType, Map<string, ChannelType>>();
const MAX_PER_TYPE = 256;

/** A channel's type as the channel sees it, its own settings over the type's; undefined when the type is gone. */
export function channelTypeOf(
  types: ChannelTypeLookup,
  channel: { app_id: string; type: string; config_overrides: string | null },
): ChannelType | undefined {
  const type = types.get(channel.app_id, channel.type);
  return type && withOverrides(type, channel.config_overrides);
}

/** The type as a channel with these stored overrides sees it. */
export function withOverrides(type: ChannelType, stored: string | null): ChannelType {
  if (stored === null) return type;
  let byOverrides = derived.get(type);
  if (!byOverrides) derived.set(type, (byOverrides = new Map()));
  let effective = byOverrides.get(stored);
  if (!effective) {
    if (byOverrides.size >= MAX_PER_TYPE) byOverrides.clear();
    effective = derive(type, stored);
    byOverrides.set(stored, effective);
  }
  return effective;
}
