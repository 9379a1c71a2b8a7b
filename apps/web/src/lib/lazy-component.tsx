import * as React from 'react';

/** Tries of a chunk import that failed, the first included, before its caller sees the error. */
const IMPORT_ATTEMPTS = 3;
/** Pause before trying again while the browser says it is online (a failed server, not a lost network). */
const RETRY_PAUSE_MS = 2000;

function backOnlineOrAfter(pauseMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (navigator.onLine) {
      setTimeout(resolve, pauseMs);
      return;
    }
    window.addEventListener('online', () => resolve(), { once: true });
  });
}

/**
 * A chunk import that does not give up on a lost network: a failed import waits until the browser is back online
 * (or a short pause when it never was offline) and tries again, a few times, before rejecting. A screen or a part
 * asked for while offline then loads when the network returns instead of failing the page.
 */
export function importWhenOnline<Module>(load: () => Promise<Module>): () => Promise<Module> {
  return async () => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await load();
      } catch (error) {
        if (attempt >= IMPORT_ATTEMPTS) throw error;
        await backOnlineOrAfter(RETRY_PAUSE_MS * attempt);
      }
    }
  };
}

/** `React.lazy` of a loader that resolves to the component itself, imported through `importWhenOnline`. */
export function lazyWhenOnline<Props extends object>(
  load: () => Promise<React.ComponentType<Props>>,
): React.LazyExoticComponent<React.ComponentType<Props>> {
  return React.lazy(importWhenOnline(async () => ({ default: await load() })));
}

/**
 * A component whose code is a separate chunk, downloaded the first time it renders; `fallback` shows meanwhile.
 * For parts most visits never see (docs/decisions/0008-web-code-splitting.md).
 */
export function lazyComponent<Props extends object>(
  load: () => Promise<React.ComponentType<Props>>,
  fallback: React.ReactNode = null,
): React.FC<Props> {
  const Loaded = lazyWhenOnline(load);
  function LazyComponent(props: Props) {
    return (
      <React.Suspense fallback={fallback}>
        <Loaded {...props} />
      </React.Suspense>
    );
  }
  return LazyComponent;
}

class WithoutOnFailure extends React.Component<
  { children: React.ReactNode; standIn: React.ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('An optional part of the page could not load.', error);
  }

  override render(): React.ReactNode {
    return this.state.failed ? this.props.standIn : this.props.children;
  }
}

/**
 * Like `lazyComponent`, for a part the page works without (the toaster, the bell, the reminder toasts): if its code
 * cannot be loaded even after `importWhenOnline`'s tries, the part is left out rather than failing the page.
 * `standIn` shows while it loads and in its place if it fails.
 */
export function optionalPart<Props extends object>(
  load: () => Promise<React.ComponentType<Props>>,
  standIn: React.ReactNode = null,
): React.FC<Props> {
  const Part = lazyComponent(load, standIn);
  function OptionalPart(props: Props) {
    return (
      <WithoutOnFailure standIn={standIn}>
        <Part {...props} />
      </WithoutOnFailure>
    );
  }
  return OptionalPart;
}

/**
 * A controlled dialog whose code downloads when it is first opened, not when its screen mounts. Once loaded it stays
 * mounted, as an eagerly imported one would, so closing it keeps Radix's exit animation and focus return.
 */
export function lazyDialog<Props extends { open: boolean }>(
  load: () => Promise<React.ComponentType<Props>>,
): React.FC<Props> {
  const Dialog = lazyComponent(load);
  function LazyDialog(props: Props) {
    const [opened, setOpened] = React.useState(props.open);
    if (props.open && !opened) setOpened(true);
    return opened ? <Dialog {...props} /> : null;
  }
  return LazyDialog;
}
