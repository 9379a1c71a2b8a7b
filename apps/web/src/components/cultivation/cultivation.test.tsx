import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Cultivation } from './cultivation';
import { RealmProgress } from './realm-progress';

function cultivation(): HTMLElement {
  const element = document.querySelector<HTMLElement>('[data-slot="cultivation"]');
  if (!element) throw new Error('Nothing was rendered.');
  return element;
}

describe('Cultivation', () => {
  it.each([
    [0, 'Luyện Khí Tầng 1'],
    [100, 'Luyện Khí Tầng 1'],
    [101, 'Luyện Khí Tầng 2'],
    [123_456, 'Kim Đan Trung Kỳ'],
    [500_000_000_000, 'Độ Kiếp Hậu Kỳ'],
    [500_000_000_001, 'Tiên Nhân'],
  ])('shows tu vi %i as the realm %s', (tuVi, name) => {
    render(<Cultivation tuVi={tuVi} />);
    expect(cultivation()).toHaveTextContent(name);
    expect(cultivation()).toHaveAttribute('data-valid', 'true');
  });

  it('shows "Tu vi không hợp lệ" as a warning for a negative value', () => {
    render(<Cultivation tuVi={-1} showValue />);
    const warning = screen.getByRole('status');
    expect(warning).toHaveTextContent('Tu vi không hợp lệ');
    expect(warning).toHaveClass('text-warning-strong');
    expect(cultivation()).toHaveAttribute('data-valid', 'false');
    // No figure next to a value that has no meaning.
    expect(cultivation()).toHaveTextContent(/^Tu vi không hợp lệ$/);
  });

  it('treats NaN as invalid too', () => {
    render(<Cultivation tuVi={Number.NaN} />);
    expect(screen.getByRole('status')).toHaveTextContent('Tu vi không hợp lệ');
  });

  it('prints the value in the vạn format before the realm when asked', () => {
    render(<Cultivation tuVi={123_456} showValue />);
    expect(cultivation()).toHaveTextContent('12,3 vạn tu vi');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('RealmProgress', () => {
  it('shows the way to the next realm: remaining tu vi and a progress bar', () => {
    // Luyện Khí Tầng 2 spans (100, 250]; 175 is half way and 251 enters Tầng 3.
    render(<RealmProgress tuVi={175} />);
    expect(screen.getByText(/còn/)).toHaveTextContent('còn 76 tu vi đến Luyện Khí Tầng 3');
    const bar = screen.getByRole('progressbar', { name: 'Tiến độ đến Luyện Khí Tầng 3' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
  });

  it('groups large remainders the Vietnamese way', () => {
    render(<RealmProgress tuVi={123_456} />);
    expect(screen.getByText(/còn/)).toHaveTextContent('còn 76.545 tu vi đến Kim Đan Hậu Kỳ');
  });

  it('needs one more point at the exact upper bound of a realm', () => {
    render(<RealmProgress tuVi={100} />);
    expect(screen.getByText(/còn/)).toHaveTextContent('còn 1 tu vi đến Luyện Khí Tầng 2');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  });

  it('has nowhere further to go at Tiên Nhân', () => {
    render(<RealmProgress tuVi={600_000_000_000} />);
    expect(screen.getByText(/cảnh giới tối cao/)).toHaveTextContent(
      'Đạo hữu đã đạt cảnh giới tối cao: Tiên Nhân.',
    );
    expect(screen.queryByText(/còn/)).not.toBeInTheDocument();
  });

  it('renders nothing for an invalid value', () => {
    const { container } = render(<RealmProgress tuVi={-5} />);
    expect(container).toBeEmptyDOMElement();
  });
});
