import * as React from 'react';

/**
 * A component whose code is a separate chunk, downloaded the first time it renders; `fallback` shows meanwhile.
 * For parts most visits never see (docs/decisions/0008-web-code-splitting.md).
 */
export function lazyComponent<Props extends object>(
  load: () => Promise<React.ComponentType<Props>>,
  fallback: React.ReactNode = null,
): React.FC<Props> {
  const Loaded = React.lazy(async () => ({ default: await load() }));
  function LazyComponent(props: Props) {
    return (
      <React.Suspense fallback={fallback}>
        <Loaded {...props} />
      </React.Suspense>
    );
  }
  return LazyComponent;
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
