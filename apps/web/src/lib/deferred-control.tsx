import * as React from 'react';
import { lazyWhenOnline } from './lazy-component';

/** What a deferred control's real component takes besides its own props: open at once, and take the focus. */
export interface DeferredControlProps {
  defaultOpen?: boolean;
  autoFocus?: boolean;
}

/** The handlers a stand-in passes to its button, to notice the user reaching for it. */
export type StandInHandlers = Pick<
  React.ComponentProps<'button'>,
  'onPointerEnter' | 'onFocus' | 'onBlur' | 'onPointerDown' | 'onKeyDown'
>;

const OPEN_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

interface Wanted {
  loaded: boolean;
  open: boolean;
  focus: boolean;
}

/**
 * A menu of the shell whose code (Radix's menu with floating-ui, about 20 KB gzip) is not part of the first load:
 * `StandIn` (the same button, without the menu) shows until the user reaches for it. A pointer over it or keyboard
 * focus starts the download; a press (pointer, Enter, Space, ArrowDown) also asks the real menu to open as soon as it
 * is there. The swap runs in a transition, so the stand-in stays on screen and keeps the focus until the real control
 * is ready, which then takes the focus if the stand-in had it (docs/decisions/0008-web-code-splitting.md).
 */
export function deferredControl<Props extends object>(
  load: () => Promise<React.ComponentType<Props & DeferredControlProps>>,
  StandIn: React.ComponentType<Props & StandInHandlers>,
): React.FC<Props> {
  const Real = lazyWhenOnline(load);
  function DeferredControl(props: Props) {
    const [wanted, setWanted] = React.useState<Wanted>({
      loaded: false,
      open: false,
      focus: false,
    });
    const want = (open: boolean, focus: boolean | undefined) => {
      React.startTransition(() =>
        setWanted((current) => ({
          loaded: true,
          open: current.open || open,
          focus: focus ?? current.focus,
        })),
      );
    };
    const standIn = (
      <StandIn
        {...props}
        onPointerEnter={() => want(false, undefined)}
        onFocus={() => want(false, true)}
        onBlur={() => want(false, false)}
        onPointerDown={(event) => {
          if (event.button === 0) want(true, true);
        }}
        onKeyDown={(event) => {
          if (!OPEN_KEYS.has(event.key)) return;
          event.preventDefault();
          want(true, true);
        }}
      />
    );
    return (
      <React.Suspense fallback={standIn}>
        {wanted.loaded ? (
          <Real {...props} defaultOpen={wanted.open} autoFocus={wanted.focus} />
        ) : (
          standIn
        )}
      </React.Suspense>
    );
  }
  return DeferredControl;
}
