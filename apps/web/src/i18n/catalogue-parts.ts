/**
 * Sections of the Vietnamese catalogue (dotted paths) that ship with the screens using them instead of with the first screen
 * (catalogue-parts-plugin.ts). English is fetched whole, and only by those who choose it.
 */
export const CATALOGUE_PARTS = {
  admin: ['admin', 'adminHome'],
  profile: ['profile'],
  // The realm table and a signed-in cultivator's home: neither is on a guest's first screen.
  cultivation: ['realms', 'dashboard'],
  // What only the chat screen shows; the shell's chat parts (bell, badges, reminder toasts) stay in the core.
  chat: [
    'chat.list',
    'chat.channel',
    'chat.guest',
    'chat.location',
    'chat.report',
    'chat.send',
    'chat.ban',
    'chat.newConversation',
  ],
} as const satisfies Record<string, readonly string[]>;

export type CataloguePart = keyof typeof CATALOGUE_PARTS;
