import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BanNotice } from './ban-notice';

describe('BanNotice', () => {
  it('announces the ban, its end and its reason in Vietnamese', () => {
    const expires = new Date(2026, 10, 25, 14, 30).toISOString();
    render(<BanNotice ban={{ expires, reason: 'Lời lẽ khiếm nhã' }} />);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Đạo hữu đã bị cấm chat đến 14:30 25/11/2026. Lý do: Lời lẽ khiếm nhã',
    );
  });
});
