const STORAGE_KEY = 'daohuu.chat-device-id';

let fallback: string | null = null;

/**
 * A stable id for this browser, for stream-chat's live-location manager, kept across reloads (localStorage).
 * stream-chat 9.53's composer still stamps new locations with its own random id (it reads the id before the app's
 * composer configuration runs), so this does not yet tie a live location to the device that started it.
 */
export function getLocationDeviceId(): string {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    if (stored) return stored;
    const created = `web-${crypto.randomUUID()}`;
    window.localStorage.setItem(STORAGE_KEY, created);
    return created;
  } catch {
    // Storage can be unavailable (private mode, blocked cookies): one id per page load is still consistent.
    fallback ??= `web-${crypto.randomUUID()}`;
    return fallback;
  }
}
