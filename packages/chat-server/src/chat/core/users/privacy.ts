import { chatError } from '../../../errors.ts';
import { isPlainObject, parseObject } from '../json.ts';

/** Stream's user privacy settings; a setting left out is on. */
export interface PrivacySettings {
  typing_indicators?: { enabled: boolean };
  read_receipts?: { enabled: boolean };
  delivery_receipts?: { enabled: boolean };
}

const SETTINGS = ['typing_indicators', 'read_receipts', 'delivery_receipts'] as const;

/**
 * Reads `privacy_settings` from a user object: null clears it; otherwise only Stream's three settings, each
 * `{enabled: boolean}`, so that nothing else is stored under the name.
 */
export function readPrivacySettings(value: unknown): PrivacySettings | null {
  if (value === null) return null;
  if (!isPlainObject(value)) throw chatError.input('user.privacy_settings must be an object');
  const settings: PrivacySettings = {};
  for (const [key, setting] of Object.entries(value)) {
    const name = SETTINGS.find((known) => known === key);
    if (!name) throw chatError.input(`user.privacy_settings.${key} is not a privacy setting`);
    if (!isPlainObject(setting) || typeof setting.enabled !== 'boolean')
      throw chatError.input(`user.privacy_settings.${key}.enabled must be a boolean`);
    settings[name] = { enabled: setting.enabled };
  }
  return settings;
}

/** The stored column's value as the user object carries it (absent when never set). */
export function storedPrivacySettings(column: string | null): PrivacySettings | undefined {
  return column === null ? undefined : (parseObject(column) as PrivacySettings);
}

/** Whether a user (as serialised) lets others see `setting`; settings are on unless turned off. */
export function privacyAllows(user: object, setting: (typeof SETTINGS)[number]): boolean {
  const settings = (user as { privacy_settings?: PrivacySettings }).privacy_settings;
  return settings?.[setting]?.enabled !== false;
}
