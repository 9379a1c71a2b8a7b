import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RealmTable } from './realm-table';

function bodyRows(): HTMLElement[] {
  const [, body] = screen.getAllByRole('rowgroup');
  return within(body as HTMLElement).getAllByRole('row');
}

function currentRow(): HTMLElement | undefined {
  return bodyRows().find((row) => row.getAttribute('aria-current') === 'true');
}

describe('RealmTable', () => {
  it('lists the invalid row, the 41 realms and Tiên Nhân with vi-VN grouped bounds', () => {
    render(<RealmTable />);
    const rows = bodyRows();
    expect(rows).toHaveLength(42);
    expect(rows[0]).toHaveTextContent('Tu vi không hợp lệ');
    expect(rows[0]).toHaveTextContent('dưới 0');
    expect(rows[1]).toHaveTextContent('Luyện Khí Tầng 1');
    expect(rows[18]).toHaveTextContent('Nguyên Anh Sơ Kỳ');
    expect(rows[18]).toHaveTextContent('1.000.000');
    expect(rows[40]).toHaveTextContent('Độ Kiếp Hậu Kỳ500.000.000.000');
    expect(rows[41]).toHaveTextContent('Tiên Nhân');
    expect(rows[41]).toHaveTextContent('trên 500.000.000.000');
    expect(currentRow()).toBeUndefined();
  });

  it.each([
    [0, 'Luyện Khí Tầng 1'],
    [123_456, 'Kim Đan Trung Kỳ'],
    [1_000_000_000_000, 'Tiên Nhân'],
    [-3, 'Tu vi không hợp lệ'],
  ])('marks the row of tu vi %i (%s) as current', (tuVi, name) => {
    render(<RealmTable tuVi={tuVi} />);
    const row = currentRow();
    expect(row).toHaveTextContent(name);
    expect(row).toHaveAttribute('data-current', 'true');
    expect(bodyRows().filter((candidate) => candidate.hasAttribute('aria-current'))).toHaveLength(
      1,
    );
  });

  it('switches to the short reading of stage names', async () => {
    const user = userEvent.setup();
    render(<RealmTable tuVi={123_456} />);
    await user.click(screen.getByRole('button', { name: 'Sơ (rút gọn)' }));
    expect(currentRow()).toHaveTextContent('Kim Đan Trung');
    expect(currentRow()).not.toHaveTextContent('Kỳ');
    expect(bodyRows()[10]).toHaveTextContent('Trúc Cơ Sơ Kỳ');
  });
});
