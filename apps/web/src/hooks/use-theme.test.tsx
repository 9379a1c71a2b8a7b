import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateMediaQueries, setPrefersDark, setPrefersDarkLater } from '@/testing/match-media';
import { DARK_SCHEME_QUERY, useMediaQuery } from './use-media-query';
import { useApplyTheme, useTheme } from './use-theme';

function ThemeSync() {
  useApplyTheme();
  return null;
}

let renderReaderAgain = (): void => {
  throw new Error('SchemeReader is not mounted.');
};

/** Another part of the page that reads the system theme, and re-renders for reasons of its own. */
function SchemeReader() {
  const [, setRenders] = useState(0);
  renderReaderAgain = () => setRenders((count) => count + 1);
  return <span data-testid="scheme">{useMediaQuery(DARK_SCHEME_QUERY) ? 'tối' : 'sáng'}</span>;
}

function ThemePicker() {
  const { setTheme } = useTheme();
  return (
    <button type="button" onClick={() => setTheme('light')}>
      Sáng
    </button>
  );
}

const html = document.documentElement;

afterEach(() => {
  html.classList.remove('dark');
  html.style.colorScheme = '';
});

describe('the theme on <html>', () => {
  it('follows the system theme while the choice is "system"', () => {
    render(<ThemeSync />);
    expect(html).not.toHaveClass('dark');
    act(() => setPrefersDark(true));
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');
    act(() => setPrefersDark(false));
    expect(html).not.toHaveClass('dark');
  });

  it('keeps a chosen light theme when the system turns dark', () => {
    render(
      <>
        <ThemeSync />
        <ThemePicker />
      </>,
    );
    act(() => screen.getByRole('button', { name: 'Sáng' }).click());
    act(() => setPrefersDark(true));
    expect(html).not.toHaveClass('dark');
  });

  it('turns dark with the system even when another part of the page read the new answer before the browser announced it', async () => {
    render(
      <>
        <ThemeSync />
        <SchemeReader />
      </>,
    );
    expect(html).not.toHaveClass('dark');

    setPrefersDarkLater(true);
    // The reader's render evaluates the shared list, so the browser's own evaluation finds nothing new to announce.
    await act(async () => renderReaderAgain());
    act(() => evaluateMediaQueries());

    expect(screen.getByTestId('scheme')).toHaveTextContent('tối');
    expect(html).toHaveClass('dark');
  });
});
