import type { ModerationQueueItem } from '@daohuu/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { renderWithProviders } from '@/testing/render';
import { QueueItemCard } from './queue-item-card';

const message = (id: string, text: string, userName: string) => ({
  id,
  text,
  userId: userName.toLowerCase(),
  userName,
  cid: 'livestream:quang-truong',
  createdAt: new Date(2026, 10, 25, 9, 15).toISOString(),
  deleted: false,
});

const ITEM: ModerationQueueItem = {
  id: 'item-1',
  kind: 'message',
  status: 'pending',
  createdAt: new Date(2026, 10, 25, 9, 20).toISOString(),
  targetUserId: 'hac-phong',
  targetUserName: 'Hắc Phong',
  message: message('m2', 'Lời lẽ khiếm nhã', 'Hắc Phong'),
  context: [
    message('m1', 'Chào chư vị đạo hữu', 'Bạch Vân'),
    message('m2', 'Lời lẽ khiếm nhã', 'Hắc Phong'),
    message('m3', 'Xin giữ hòa khí', 'Tử Yên'),
  ],
  reports: [
    {
      reason: 'Lời lẽ xúc phạm',
      reporterId: 'bach-van',
      reporterName: 'Bạch Vân',
      createdAt: null,
    },
  ],
  actions: [],
  history: [
    {
      type: 'ban',
      reason: 'Spam lần đầu',
      moderatorId: 'mod',
      createdAt: new Date(2026, 9, 1, 8, 0).toISOString(),
    },
  ],
};

describe('QueueItemCard', () => {
  it('shows the flagged message among its neighbours, the report’s reason and earlier actions on the author', () => {
    renderWithProviders(<QueueItemCard item={ITEM} onAction={vi.fn()} pending={false} />);
    const card = screen.getByRole('article', { name: 'Tin nhắn của Hắc Phong' });
    const context = within(card).getAllByRole('listitem').slice(0, 3);
    expect(context.map((entry) => entry.textContent)).toEqual([
      expect.stringContaining('Chào chư vị đạo hữu'),
      expect.stringContaining('Lời lẽ khiếm nhã'),
      expect.stringContaining('Xin giữ hòa khí'),
    ]);
    expect(context[1]).toHaveAttribute('aria-current', 'true');
    expect(within(card).getByRole('region', { name: 'Lý do báo cáo' })).toHaveTextContent(
      'Bạch Vân: Lời lẽ xúc phạm',
    );
    expect(
      within(card).getByRole('region', { name: 'Xử lý trước đây với người dùng này' }),
    ).toHaveTextContent('Cấm · 08:00 01/10/2026 · Spam lần đầu');
  });

  it('asks for a length only for bans and sends it in minutes with the reason', async () => {
    const user = userEvent.setup();
    const onAction = vi.fn(async () => {});
    renderWithProviders(<QueueItemCard item={ITEM} onAction={onAction} pending={false} />);
    expect(screen.queryByLabelText('Thời hạn')).not.toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Hành động'), 'Cấm');
    await user.selectOptions(screen.getByLabelText('Thời hạn'), '7 ngày');
    await user.type(screen.getByLabelText('Lý do'), 'Tái phạm');
    await user.click(screen.getByRole('button', { name: 'Cấm' }));
    expect(onAction).toHaveBeenCalledWith({
      action: 'ban',
      reason: 'Tái phạm',
      durationMinutes: 10_080,
    });

    await user.selectOptions(screen.getByLabelText('Hành động'), 'Cấm ẩn');
    await user.selectOptions(screen.getByLabelText('Thời hạn'), 'Vĩnh viễn');
    await user.click(screen.getByRole('button', { name: 'Cấm ẩn' }));
    expect(onAction).toHaveBeenLastCalledWith({
      action: 'shadow_ban',
      reason: '',
      durationMinutes: null,
    });
  });

  it('shows the server’s Vietnamese error when the action fails', async () => {
    const user = userEvent.setup();
    const onAction = vi.fn(async () => {
      throw new ApiError(
        502,
        'CHAT_UNAVAILABLE',
        'Máy chủ trò chuyện chưa sẵn sàng, vui lòng thử lại.',
      );
    });
    renderWithProviders(<QueueItemCard item={ITEM} onAction={onAction} pending={false} />);
    await user.click(screen.getByRole('button', { name: 'Đánh dấu đã xem xét' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Máy chủ trò chuyện chưa sẵn sàng');
  });

  it('offers no message actions for a flagged user', () => {
    renderWithProviders(
      <QueueItemCard
        item={{ ...ITEM, kind: 'user', message: null, context: [] }}
        onAction={vi.fn()}
        pending={false}
      />,
    );
    const options = within(screen.getByLabelText('Hành động'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Đánh dấu đã xem xét', 'Cấm', 'Cấm ẩn', 'Bỏ cấm']);
  });
});
