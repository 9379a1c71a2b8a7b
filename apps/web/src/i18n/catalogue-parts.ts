/**
 * Sections of the Vietnamese catalogue that ship with the screens using them instead of with the first screen
 * (catalogue-parts-plugin.ts). English is fetched whole, and only by those who choose it.
 */
export const CATALOGUE_PARTS = {
  admin: ['admin', 'adminHome'],
  profile: ['profile'],
} as const satisfies Record<string, readonly string[]>;

export type CataloguePart = keyof typeof CATALOGUE_PARTS;
