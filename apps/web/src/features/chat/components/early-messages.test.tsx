import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as EarlyModuleShape from './early-messages';

type EarlyModule = typeof EarlyModuleShape;

// What the server writes after #root on a chat page (apps/server/src/chat/first-messages.ts), reduced to its hooks.
const SERVER_PAGE = `
  <div id="dh-early-messages">
    <section data-first-messages="" data-early-messages="sect:quang-truong">
      <ol><li data-message-id="m1"><p>Chào chư vị</p><time datetime="2026-11-27T01:02:00.000Z"></time></li></ol>
    </section>
  </div>`;

async function freshModule(): Promise<EarlyModule> {
  // The drawing and its retirement are page-wide: each test loads the module as a new page would.
  vi.resetModules();
  return import('./early-messages');
}

function drawing(): HTMLElement | null {
  return document.querySelector('[data-early-messages]');
}

describe('the messages the server drew before the app ran', () => {
  let early: EarlyModule;
  beforeEach(async () => {
    document.body.innerHTML = SERVER_PAGE;
    early = await freshModule();
  });

  it('moves into the chat frame at once, and gets its times written in the viewer’s clock', async () => {
    const { container } = render(
      <early.EarlyMessages cid={undefined} fallback={<p>Đang kết nối</p>} />,
    );
    const frame = container.querySelector('.dh-chat-frame');
    expect(frame).not.toBeNull();
    expect(drawing()?.parentElement).toBe(frame);
    expect(screen.getByText('Chào chư vị')).toBeVisible();
    expect(screen.queryByText('Đang kết nối')).toBeNull();
    await vi.waitFor(() =>
      expect(drawing()?.querySelector('time')?.textContent).toMatch(/^\d{2}:\d{2}$/),
    );
  });

  it('inside the chat screen, which is the frame itself, draws no second frame', () => {
    const { container } = render(
      <section className="dh-chat-frame">
        <early.EarlyMessages cid={undefined} framed={false} fallback={<p>Đang kết nối</p>} />
      </section>,
    );
    expect(container.querySelectorAll('.dh-chat-frame')).toHaveLength(1);
    expect(screen.getByText('Chào chư vị')).toBeVisible();
  });

  it('shows its fallback instead for another channel, and where no channel opens', () => {
    const { rerender } = render(
      <early.EarlyMessages cid="messaging:khac" fallback={<p>Đang kết nối</p>} />,
    );
    expect(screen.getByText('Đang kết nối')).toBeVisible();
    rerender(<early.EarlyMessages cid={null} fallback={<p>Đang kết nối</p>} />);
    expect(screen.getByText('Đang kết nối')).toBeVisible();
    rerender(<early.EarlyMessages cid="sect:quang-truong" fallback={<p>Đang kết nối</p>} />);
    expect(screen.queryByText('Đang kết nối')).toBeNull();
    expect(screen.getByText('Chào chư vị')).toBeVisible();
  });

  it('stays on screen when the stand-in takes the route fallback’s place', () => {
    function Page({ standIn }: { standIn: boolean }) {
      return standIn ? (
        <main>
          <early.EarlyMessages cid="sect:quang-truong" fallback={<p>Đang kết nối</p>} />
        </main>
      ) : (
        <early.EarlyMessages cid={undefined} fallback={<p>Đang kết nối</p>} />
      );
    }
    const { container, rerender } = render(<Page standIn={false} />);
    rerender(<Page standIn />);
    expect(container.querySelector('main .dh-chat-frame [data-early-messages]')).not.toBeNull();
    expect(screen.getByText('Chào chư vị')).toBeVisible();
  });

  it('never comes back once retired: messages read at page load are not current later', () => {
    const { unmount } = render(
      <early.EarlyMessages cid={undefined} fallback={<p>Đang kết nối</p>} />,
    );
    early.retireEarlyMessages();
    unmount();
    expect(drawing()).toBeNull();
    expect(document.getElementById('dh-early-messages')).toBeNull();
    render(<early.EarlyMessages cid={undefined} fallback={<p>Đang kết nối</p>} />);
    expect(screen.getByText('Đang kết nối')).toBeVisible();
  });

  it('knows some channel opens when the address names one or the screen is wide, none on a phone’s list', () => {
    expect(early.opensAChannel({ type: 'sect', id: 'luan-dao' }, false)).toBeUndefined();
    expect(early.opensAChannel({}, true)).toBeUndefined();
    expect(early.opensAChannel({}, false)).toBeNull();
  });
});
