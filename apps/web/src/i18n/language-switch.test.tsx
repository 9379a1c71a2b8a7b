import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Landing } from '@/features/cultivation/components/landing';
import { RealmTable } from '@/features/cultivation/components/realm-table';
import { renderWithProviders } from '@/testing/render';
import en from './locales/en.json';
import vi from './locales/vi.json';
import { LANGUAGE_STORAGE_KEY, writeLanguage } from './language';
import { LanguageItems } from './language-items';

function Screen() {
  return (
    <>
      <DropdownMenu defaultOpen modal={false}>
        <DropdownMenuTrigger>menu</DropdownMenuTrigger>
        <DropdownMenuContent>
          <LanguageItems />
        </DropdownMenuContent>
      </DropdownMenu>
      <Landing />
      <RealmTable tuVi={150} />
    </>
  );
}

describe('the language switch', () => {
  it('shows the landing page and the realm table in Vietnamese by default', () => {
    renderWithProviders(<Screen />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(vi.landing.title);
    expect(screen.getByRole('columnheader', { name: vi.realms.boundColumn })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('vi');
  });

  it('turns the screen English from the menu, remembers it and sets <html lang>', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Screen />);
    const menu = screen.getByRole('menu');
    await user.click(within(menu).getByRole('menuitemradio', { name: 'English' }));

    // The English catalogue arrives on demand; the screen follows once it is in.
    expect(
      await screen.findByRole('heading', { level: 1, name: en.landing.title }),
    ).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: en.realms.boundColumn })).toBeInTheDocument();
    expect(screen.getByText(en.realms.youAreHere)).toBeInTheDocument();
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(screen.queryByText(vi.landing.title)).not.toBeInTheDocument();
  });

  it('starts in English when English was chosen before (a reload), and follows another tab back to Vietnamese', async () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    renderWithProviders(<Screen />);
    expect(
      await screen.findByRole('heading', { level: 1, name: en.landing.title }),
    ).toBeInTheDocument();

    act(() => {
      window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'vi');
      window.dispatchEvent(new StorageEvent('storage', { key: LANGUAGE_STORAGE_KEY }));
    });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(vi.landing.title);
    expect(document.documentElement.lang).toBe('vi');
  });

  it('treats an unknown stored language as Vietnamese', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'fr');
    renderWithProviders(<Screen />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(vi.landing.title);
  });

  it('keeps the choice for the page when storage refuses it (private mode)', async () => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    try {
      renderWithProviders(<Screen />);
      act(() => writeLanguage('en'));
      expect(
        await screen.findByRole('heading', { level: 1, name: en.landing.title }),
      ).toBeInTheDocument();
    } finally {
      Storage.prototype.setItem = setItem;
      act(() => writeLanguage('vi'));
    }
  });
});
