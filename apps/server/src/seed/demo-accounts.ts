import type { Role } from '@daohuu/domain';

export interface DemoAccount {
  email: string;
  password: string;
  daoHieu: string;
  role: Role;
  tuVi: number;
  balance: number;
}

/** The demo admin the README tells newcomers to sign in with. */
export const DEMO_ADMIN: DemoAccount = {
  email: 'admin@daohuu.local',
  password: 'tutien-admin-2026',
  daoHieu: 'Chưởng Môn',
  role: 'admin',
  tuVi: 123_456,
  balance: 8_888_888,
};

export const DEMO_USER_PASSWORD = 'tutien-demo-2026';

/** Demo cultivators spread across realms (the realm each reaches is in the comment). */
export const DEMO_USERS: DemoAccount[] = [
  // Luyện Khí Tầng 1
  { email: 'bach.van@daohuu.local', daoHieu: 'Bạch Vân', tuVi: 75, balance: 20_000 },
  // Luyện Khí Tầng 8
  { email: 'lang.phong@daohuu.local', daoHieu: 'Lăng Phong', tuVi: 2_300, balance: 150_000 },
  // Trúc Cơ Đại Viên Mãn
  { email: 'tu.yen@daohuu.local', daoHieu: 'Tử Yên', tuVi: 48_000, balance: 2_500_000 },
  // Nguyên Anh Trung Kỳ
  { email: 'mac.tran@daohuu.local', daoHieu: 'Mặc Trần', tuVi: 1_500_000, balance: 12_000_000 },
  // Hóa Thần Đại Viên Mãn
  {
    email: 'luc.thanh.y@daohuu.local',
    daoHieu: 'Lục Thanh Y',
    tuVi: 42_000_000,
    balance: 99_000_000,
  },
].map((account) => ({ ...account, password: DEMO_USER_PASSWORD, role: 'user' as const }));
