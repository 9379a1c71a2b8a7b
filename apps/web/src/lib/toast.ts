import type { ExternalToast } from 'sonner';

/*
 * sonner's `toast` for the whole app: sonner loads with the first toast instead of with the page (on the chat screen,
 * instead of before its first message), and its Toaster (app/provider.tsx) replays toasts created
 * before it subscribed, so none is lost (docs/decisions/0008-web-code-splitting.md).
 */
type Message = string;

function show(
  kind: 'message' | 'success' | 'error' | 'warning',
  message: Message,
  data?: ExternalToast,
): void {
  import('sonner').then(
    ({ toast: sonner }) => {
      if (kind === 'message') sonner(message, data);
      else sonner[kind](message, data);
    },
    (error: unknown) => console.error('A notice could not be shown: its code did not load.', error),
  );
}

export const toast = Object.assign(
  (message: Message, data?: ExternalToast) => show('message', message, data),
  {
    success: (message: Message, data?: ExternalToast) => show('success', message, data),
    error: (message: Message, data?: ExternalToast) => show('error', message, data),
    warning: (message: Message, data?: ExternalToast) => show('warning', message, data),
  },
);
