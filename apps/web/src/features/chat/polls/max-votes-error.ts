/**
 * The message for a typed vote limit (docs/product-rules.md §6), checked in this order. stream-chat's poll composer
 * clamps the value to 2–10 before validating it, so without this the composer would silently turn "x" into "" and
 * "11" into "10"; the dialog hands these errors to the composer as field errors instead.
 */
export function maxVotesError(raw: string, enforceUniqueVote: boolean): string | undefined {
  if (raw === '') return undefined;
  if (enforceUniqueVote) return 'Enforce unique vote is enabled';
  if (!/^\d+$/.test(raw)) return 'Only numbers are allowed';
  const value = Number(raw);
  if (value < 2 || value > 10) return 'Type a number from 2 to 10';
  return undefined;
}
