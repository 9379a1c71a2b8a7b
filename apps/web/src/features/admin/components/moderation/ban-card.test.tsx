import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { BanCard } from './bans-panel';

describe('BanCard', () => {
  it('shows who is banned, until when and why, and lifts the ban from its button', async () => {
    const user = userEvent.setup();
    const onUnban = vi.fn();
    render(
      <BanCard
        ban={{
          userId: 'hac-phong',
          userName: 'Hắc Phong',
          reason: 'Xúc phạm',
          expires: new Date(2026, 10, 26, 14, 30).toISOString(),
          bannedById: 'mod',
          createdAt: null,
          shadow: false,
        }}
        onUnban={onUnban}
        pending={false}
      />,
    );
    const card = screen.getByRole('article', { name: 'Lệnh cấm Hắc Phong' });
    expect(card).toHaveTextContent('Đến 14:30 26/11/2026');
    expect(card).toHaveTextContent('Lý do: Xúc phạm');
    await user.click(screen.getByRole('button', { name: 'Bỏ cấm Hắc Phong' }));
    expect(onUnban).toHaveBeenCalledOnce();
  });

  it('marks a permanent shadow ban as such', () => {
    render(
      <BanCard
        ban={{
          userId: 'u',
          userName: null,
          reason: null,
          expires: null,
          bannedById: null,
          createdAt: null,
          shadow: true,
        }}
        onUnban={vi.fn()}
        pending={false}
      />,
    );
    const card = screen.getByRole('article', { name: 'Lệnh cấm u' });
    expect(card).toHaveTextContent('Cấm ẩn');
    expect(card).toHaveTextContent('Vĩnh viễn');
    expect(card).toHaveTextContent('Lý do: không ghi lý do');
  });
});
