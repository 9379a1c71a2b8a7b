import { describe, expect, it } from 'vitest';
import { ROLES, isRole } from './roles.ts';

describe('isRole', () => {
  it.each(ROLES)('accepts the product role %s', (role) => {
    expect(isRole(role)).toBe(true);
  });

  it.each([['guest'], ['anonymous'], ['Admin'], [''], [null], [undefined], [1], [['admin']]])(
    'refuses %j, which is no product role',
    (value) => {
      expect(isRole(value)).toBe(false);
    },
  );
});
