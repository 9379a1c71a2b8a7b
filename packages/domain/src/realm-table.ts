/** Stage names print as `full` "Kim Đan Sơ Kỳ" or `short` "Kim Đan Sơ": both stand (docs/product-rules.md §3). */
export type RealmReading = 'full' | 'short';

/**
 * One row of the realm table. A tu vi value belongs to the first row whose `upper` satisfies `value <= upper`.
 * `stage` is the bare stage word ("Sơ", "Đại Viên Mãn", "Tầng 3"); "Kỳ" is added when printing, by reading.
 * `stage` is null only for Tiên Nhân.
 */
export interface RealmRow {
  readonly upper: number;
  readonly major: string;
  readonly stage: string | null;
}

function row(upper: number, major: string, stage: string | null): RealmRow {
  return Object.freeze({ upper, major, stage });
}

/** The docs/product-rules.md §3 table in order, bounds inclusive and strictly increasing; Tiên Nhân (∞) is last. */
export const REALMS: readonly RealmRow[] = Object.freeze([
  row(100, 'Luyện Khí', 'Tầng 1'),
  row(250, 'Luyện Khí', 'Tầng 2'),
  row(450, 'Luyện Khí', 'Tầng 3'),
  row(700, 'Luyện Khí', 'Tầng 4'),
  row(1_000, 'Luyện Khí', 'Tầng 5'),
  row(1_500, 'Luyện Khí', 'Tầng 6'),
  row(2_200, 'Luyện Khí', 'Tầng 7'),
  row(3_000, 'Luyện Khí', 'Tầng 8'),
  row(4_000, 'Luyện Khí', 'Tầng 9'),
  row(10_000, 'Trúc Cơ', 'Sơ'),
  row(20_000, 'Trúc Cơ', 'Trung'),
  row(35_000, 'Trúc Cơ', 'Hậu'),
  row(50_000, 'Trúc Cơ', 'Đại Viên Mãn'),
  row(100_000, 'Kim Đan', 'Sơ'),
  row(200_000, 'Kim Đan', 'Trung'),
  row(350_000, 'Kim Đan', 'Hậu'),
  row(500_000, 'Kim Đan', 'Đại Viên Mãn'),
  row(1_000_000, 'Nguyên Anh', 'Sơ'),
  row(2_000_000, 'Nguyên Anh', 'Trung'),
  row(3_500_000, 'Nguyên Anh', 'Hậu'),
  row(5_000_000, 'Nguyên Anh', 'Đại Viên Mãn'),
  row(10_000_000, 'Hóa Thần', 'Sơ'),
  row(20_000_000, 'Hóa Thần', 'Trung'),
  row(35_000_000, 'Hóa Thần', 'Hậu'),
  row(50_000_000, 'Hóa Thần', 'Đại Viên Mãn'),
  row(100_000_000, 'Luyện Hư', 'Sơ'),
  row(200_000_000, 'Luyện Hư', 'Trung'),
  row(350_000_000, 'Luyện Hư', 'Hậu'),
  row(500_000_000, 'Luyện Hư', 'Đại Viên Mãn'),
  row(1_000_000_000, 'Hợp Thể', 'Sơ'),
  row(2_000_000_000, 'Hợp Thể', 'Trung'),
  row(3_500_000_000, 'Hợp Thể', 'Hậu'),
  row(5_000_000_000, 'Hợp Thể', 'Đại Viên Mãn'),
  row(10_000_000_000, 'Đại Thừa', 'Sơ'),
  row(20_000_000_000, 'Đại Thừa', 'Trung'),
  row(35_000_000_000, 'Đại Thừa', 'Hậu'),
  row(50_000_000_000, 'Đại Thừa', 'Đại Viên Mãn'),
  // Độ Kiếp has no Đại Viên Mãn: its Hậu Kỳ runs up to the Tiên Nhân threshold.
  row(100_000_000_000, 'Độ Kiếp', 'Sơ'),
  row(200_000_000_000, 'Độ Kiếp', 'Trung'),
  row(500_000_000_000, 'Độ Kiếp', 'Hậu'),
  row(Infinity, 'Tiên Nhân', null),
]);

// Only these stage words take "Kỳ"; "Đại Viên Mãn" and "Tầng N" never do.
const STAGES_WITH_KY: ReadonlySet<string> = new Set(['Sơ', 'Trung', 'Hậu']);

// docs/product-rules.md §3: the short reading drops "Kỳ" for Kim Đan to Đại Thừa only; Trúc Cơ and Độ Kiếp keep it.
const MAJORS_SHORT_WITHOUT_KY: ReadonlySet<string> = new Set([
  'Kim Đan',
  'Nguyên Anh',
  'Hóa Thần',
  'Luyện Hư',
  'Hợp Thể',
  'Đại Thừa',
]);

/** The printed name of a row ("Kim Đan Sơ Kỳ", or "Kim Đan Sơ" in the short reading); used for the realm table. */
export function realmRowName(row: RealmRow, reading: RealmReading = 'full'): string {
  if (row.stage === null) return row.major;
  const dropsKy = reading === 'short' && MAJORS_SHORT_WITHOUT_KY.has(row.major);
  const ky = STAGES_WITH_KY.has(row.stage) && !dropsKy ? ' Kỳ' : '';
  return `${row.major} ${row.stage}${ky}`;
}
