import * as React from 'react';

/**
 * Keeps `--dh-visual-viewport-height` on the element equal to the visual viewport's height. Chromium shrinks the
 * layout viewport for the on-screen keyboard (index.html asks for `interactive-widget=resizes-content`), but Safari
 * only shrinks the visual viewport: sized by this variable, the chat keeps its header and composer in sight there too. Times
 * the scale, so pinch-zooming does not shrink it.
 */
export function useVisualViewportHeight(ref: React.RefObject<HTMLElement | null>): void {
  React.useEffect(() => {
    const element = ref.current;
    const viewport = window.visualViewport;
    if (!element || !viewport) return;
    const update = () =>
      element.style.setProperty(
        '--dh-visual-viewport-height',
        `${viewport.height * viewport.scale}px`,
      );
    update();
    viewport.addEventListener('resize', update);
    return () => {
      viewport.removeEventListener('resize', update);
      element.style.removeProperty('--dh-visual-viewport-height');
    };
  }, [ref]);
}
