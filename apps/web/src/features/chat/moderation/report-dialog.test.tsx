import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StreamChat } from 'stream-chat';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/render';
import { ReportDialogProvider, useReportMessage } from './report-dialog';
import { reportReasonText } from './report-reasons';

function OpenButton() {
  const report = useReportMessage();
  return (
    <button type="button" onClick={() => report({ id: 'msg-1', authorName: 'Bạch Vân' })}>
      mở
    </button>
  );
}

/** Stands in for stream-chat's client (a third-party boundary): only the call the dialog makes. */
function fakeClient() {
  const flagMessage = vi.fn(async () => ({}));
  return { client: { flagMessage } as unknown as StreamChat, flagMessage };
}

describe('ReportDialogProvider', () => {
  it('asks for a reason before sending, then sends the message id with the chosen reason', async () => {
    const user = userEvent.setup();
    const { client, flagMessage } = fakeClient();
    renderWithProviders(
      <ReportDialogProvider client={client}>
        <OpenButton />
      </ReportDialogProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'mở' }));
    expect(await screen.findByRole('dialog', { name: 'Báo cáo tin nhắn' })).toHaveTextContent(
      'Bạch Vân',
    );

    await user.click(screen.getByRole('button', { name: 'Gửi báo cáo' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Hãy chọn lý do báo cáo.');
    expect(flagMessage).not.toHaveBeenCalled();

    await user.click(screen.getByRole('radio', { name: 'Lừa đảo' }));
    await user.type(screen.getByLabelText(/Chi tiết/), 'xin chuyển khoản trước');
    await user.click(screen.getByRole('button', { name: 'Gửi báo cáo' }));
    expect(flagMessage).toHaveBeenCalledWith('msg-1', {
      reason: 'Lừa đảo: xin chuyển khoản trước',
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps the dialog open with a Vietnamese error when the report is refused', async () => {
    const user = userEvent.setup();
    const { client, flagMessage } = fakeClient();
    flagMessage.mockRejectedValueOnce(new Error('StreamChat error code 4'));
    renderWithProviders(
      <ReportDialogProvider client={client}>
        <OpenButton />
      </ReportDialogProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'mở' }));
    await user.click(await screen.findByRole('radio', { name: 'Spam hoặc quảng cáo' }));
    await user.click(screen.getByRole('button', { name: 'Gửi báo cáo' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Không gửi được báo cáo');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('reportReasonText', () => {
  it('requires the reporter’s own words for "Khác" and bounds their length', () => {
    expect(reportReasonText('other', '  ')).toEqual({
      ok: false,
      message: 'Hãy ghi rõ lý do báo cáo.',
    });
    expect(reportReasonText('other', 'mạo danh')).toEqual({ ok: true, text: 'Khác: mạo danh' });
    expect(reportReasonText('scam', 'x'.repeat(301)).ok).toBe(false);
  });
});
