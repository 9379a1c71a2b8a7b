import { act, render } from '@testing-library/react';
import * as React from 'react';
import { BrowserRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ThreadHistory } from './thread-history';

// The channel's thread as stream-chat-react would hold it: the test opens and closes it.
let openThread: ((id: string | undefined) => void) | undefined;
const closeThread = vi.fn(() => openThread?.(undefined));

vi.mock('stream-chat-react', () => ({
  useChannelStateContext: () => ({ thread: React.useContext(ThreadContext) }),
  useChannelActionContext: () => ({ closeThread }),
}));

const ThreadContext = React.createContext<{ id: string } | undefined>(undefined);

function Channel() {
  const [threadId, setThreadId] = React.useState<string | undefined>();
  openThread = setThreadId;
  return (
    <ThreadContext.Provider value={threadId ? { id: threadId } : undefined}>
      <ThreadHistory />
    </ThreadContext.Provider>
  );
}

const entryThread = () =>
  (window.history.state as { usr?: { dhThread?: string } | null } | null)?.usr?.dhThread;

function backAndWait(): Promise<void> {
  return new Promise((resolve) => {
    window.addEventListener('popstate', () => resolve(), { once: true });
    window.history.back();
  });
}

describe('a thread as a history entry', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/chat/messaging/nhom');
    closeThread.mockClear();
  });
  afterEach(() => {
    openThread = undefined;
  });

  it('adds an entry when a thread opens, and the back button closes the thread', async () => {
    render(
      <BrowserRouter>
        <Channel />
      </BrowserRouter>,
    );
    const before = window.history.length;
    await act(async () => openThread?.('T'));
    expect(entryThread()).toBe('T');
    expect(window.history.length).toBe(before + 1);
    await act(() => backAndWait());
    expect(closeThread).toHaveBeenCalledTimes(1);
    expect(window.location.pathname).toBe('/chat/messaging/nhom');
  });

  it('records a thread reopened while the router still shows the entry the back button just left', async () => {
    render(
      <BrowserRouter>
        <Channel />
      </BrowserRouter>,
    );
    await act(async () => openThread?.('T'));
    expect(entryThread()).toBe('T');
    // Closing steps back over the thread's entry. The browser gets there before the router renders the move (it
    // renders history moves as transitions), so for a moment the router's location still carries the thread while
    // the browser's entry does not; the replaceState below stands for that moment. A thread reopened then must get
    // an entry of its own, or the back button would not close it.
    const { key, idx } = window.history.state as { key: string; idx: number };
    await act(async () => {
      openThread?.(undefined);
    });
    window.history.replaceState({ usr: null, key, idx }, '');
    await act(async () => openThread?.('T'));
    expect(entryThread()).toBe('T');
    await act(() => backAndWait());
    expect(closeThread).toHaveBeenCalled();
  });
});
