import { DAO_HIEU_LENGTH_MESSAGE, checkDaoHieu } from '@daohuu/domain';

/** The đạo hiệu rule of packages/domain, the very one the server applies, as a form field's error (or null). */
export function validateDaoHieu(daoHieu: string): string | null {
  const check = checkDaoHieu(daoHieu);
  return check.ok ? null : check.message;
}

export { DAO_HIEU_LENGTH_MESSAGE };
