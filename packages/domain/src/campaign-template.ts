import { realmIndexOf, realmName } from './realm.ts';

/** The fields a campaign template may name of the receiver and the sender. */
export interface TemplateUser {
  id: string;
  name: string | null;
  custom: Record<string, unknown>;
}

// `{{ receiver.name }}` or `{{receiver.name}}`, as in Stream's campaign templates; paths are plain field names.
const PLACEHOLDER = /\{\{\s*(receiver|sender)\.([A-Za-z0-9_]{1,64})\s*\}\}/g;

/** The placeholders the admin screen offers, with what each one becomes. */
export const CAMPAIGN_PLACEHOLDERS = ['{{ receiver.name }}', '{{ receiver.realm }}'] as const;

/**
 * One user's value for a placeholder: `name` falls back to the id, `realm` is the realm of the custom `tu_vi`
 * (empty when the user has none), other names read the user's custom data. Unknown fields render empty, as Stream
 * renders an undefined template variable.
 */
function valueOf(user: TemplateUser, field: string): string {
  if (field === 'id') return user.id;
  if (field === 'name') return user.name || user.id;
  if (field === 'realm') {
    const tuVi = user.custom.tu_vi;
    return realmIndexOf(tuVi) >= 0 ? realmName(tuVi) : '';
  }
  if (!Object.hasOwn(user.custom, field)) return '';
  const value = user.custom[field];
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A campaign message template with one receiver's (and the sender's) values filled in. */
export function renderCampaignTemplate(
  template: string,
  people: { receiver: TemplateUser; sender: TemplateUser },
): string {
  return template.replace(PLACEHOLDER, (_match, who: 'receiver' | 'sender', field: string) =>
    valueOf(people[who], field),
  );
}
