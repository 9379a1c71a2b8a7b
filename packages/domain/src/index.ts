export { REALMS, realmRowName } from './realm-table.ts';
export type { RealmReading, RealmRow } from './realm-table.ts';
export { INVALID_TU_VI, realmIndexOf, realmName, realmOf } from './realm.ts';
export type { InvalidRealm, Realm, RealmOptions } from './realm.ts';
export {
  AMOUNT_PLACEHOLDER,
  DEFAULT_CURRENCY,
  DEFAULT_LOCALE,
  amountFormatter,
  formatAmount,
} from './number-format.ts';
export type { AmountFormatterKind, AmountMode, AmountOptions } from './number-format.ts';
