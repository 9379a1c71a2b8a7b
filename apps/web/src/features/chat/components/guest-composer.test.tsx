import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useLoginDialog } from '@/lib/login-dialog';
import { renderWithProviders } from '@/testing/render';
import { t } from '@/i18n';
import { GuestComposer } from './guest-composer';

const GUEST_COMPOSER_PLACEHOLDER = t('chat.guest.placeholder');

function DialogProbe() {
  const { open, tab } = useLoginDialog();
  return <output data-testid="login-dialog">{open ? `open:${tab}` : 'closed'}</output>;
}

describe('GuestComposer', () => {
  it('looks like a composer but cannot be typed into', () => {
    renderWithProviders(<GuestComposer />);
    const field = screen.getByPlaceholderText(GUEST_COMPOSER_PLACEHOLDER);
    expect(field).toHaveAttribute('readonly');
  });

  it('opens the login dialog when a guest focuses the field to write', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <GuestComposer />
        <DialogProbe />
      </>,
    );
    expect(screen.getByTestId('login-dialog')).toHaveTextContent('closed');
    await user.click(screen.getByPlaceholderText(GUEST_COMPOSER_PLACEHOLDER));
    expect(screen.getByTestId('login-dialog')).toHaveTextContent('open:sign-in');
  });

  it('gives up focus, so focus returning after the dialog closes does not reopen it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<GuestComposer />);
    const field = screen.getByPlaceholderText(GUEST_COMPOSER_PLACEHOLDER);
    await user.click(field);
    expect(field).not.toHaveFocus();
  });

  it('opens the login dialog from its sign-in button', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <GuestComposer />
        <DialogProbe />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Đăng nhập' }));
    expect(screen.getByTestId('login-dialog')).toHaveTextContent('open:sign-in');
  });
});
