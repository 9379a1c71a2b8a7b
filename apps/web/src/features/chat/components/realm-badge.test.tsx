import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RealmBadge } from './realm-badge';

describe('RealmBadge', () => {
  it("shows the author's realm from their tu_vi", () => {
    render(<RealmBadge tuVi={1_500_000} />);
    expect(screen.getByTestId('realm-badge')).toHaveTextContent('Nguyên Anh Trung Kỳ');
    expect(screen.getByTestId('realm-badge')).toHaveAttribute(
      'title',
      'Cảnh giới: Nguyên Anh Trung Kỳ',
    );
  });

  it('colours the badge by major realm', () => {
    const { rerender } = render(<RealmBadge tuVi={50} />);
    expect(screen.getByTestId('realm-badge')).toHaveClass('dh-realm-badge--jade');
    rerender(<RealmBadge tuVi={123_456} />);
    expect(screen.getByTestId('realm-badge')).toHaveClass('dh-realm-badge--gold');
    rerender(<RealmBadge tuVi={-1} />);
    expect(screen.getByTestId('realm-badge')).toHaveClass('dh-realm-badge--invalid');
  });

  it('renders nothing for a user without tu_vi', () => {
    const { container } = render(<RealmBadge tuVi={undefined} />);
    expect(container).toBeEmptyDOMElement();
  });
});
