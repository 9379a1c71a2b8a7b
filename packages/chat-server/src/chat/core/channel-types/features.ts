import { sql, type RawBuilder } from 'kysely';
import { chatError } from '../../../errors.ts';
import type { ChannelTypeConfig, ChannelTypeLookup } from '../channel-types.ts';

/** The config switches that turn a feature off for every channel of a type. */
export type FeatureSwitch =
  | 'typing_events'
  | 'read_events'
  | 'custom_events'
  | 'reactions'
  | 'replies'
  | 'quotes'
  | 'uploads'
  | 'search'
  | 'mutes'
  | 'polls'
  | 'shared_locations'
  | 'user_message_reminders'
  | 'url_enrichment';

const LABELS: Record<FeatureSwitch, string> = {
  typing_events: 'typing events are',
  read_events: 'read events are',
  custom_events: 'custom events are',
  reactions: 'reactions are',
  replies: 'replies are',
  quotes: 'quotes are',
  uploads: 'uploads are',
  search: 'search is',
  mutes: 'mutes are',
  polls: 'polls are',
  shared_locations: 'shared locations are',
  user_message_reminders: 'message reminders are',
  url_enrichment: 'url enrichment is',
};

/**
 * Stream's refusal when a channel's type has the feature switched off (code 19,
 * `… are disabled for this channel type`). One call per feature entry point keeps every switch's rule here.
 */
export function requireFeature(type: { config: ChannelTypeConfig }, feature: FeatureSwitch): void {
  if (!type.config[feature])
    throw chatError.featureNotSupported(`${LABELS[feature]} disabled for this channel type`);
}

/** Whether the type of channel `cid` (in `appId`) has the feature on; a cid of an unknown type has none. */
export function featureOn(
  types: ChannelTypeLookup,
  appId: string,
  cid: string,
  feature: FeatureSwitch,
): boolean {
  const type = types.get(appId, cid.slice(0, cid.indexOf(':')));
  return type?.config[feature] === true;
}

/** SQL: `condition`, narrowed to channels (`typeColumn`) whose type has the feature on. */
export function withFeatureOn(
  condition: RawBuilder<boolean>,
  types: ChannelTypeLookup,
  appId: string,
  typeColumn: string,
  feature: FeatureSwitch,
): RawBuilder<boolean> {
  const names = types
    .list(appId)
    .filter((type) => type.config[feature])
    .map((type) => type.name);
  if (names.length === 0) return sql<boolean>`1 = 0`;
  return sql<boolean>`(${condition} and ${sql.ref(typeColumn)} in (${sql.join(names)}))`;
}
