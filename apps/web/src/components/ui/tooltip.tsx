import { Slot } from '@radix-ui/react-slot';
import * as React from 'react';
import { createPortal } from 'react-dom';
import { cn } from '@/lib/utils';

/*
 * The shell's tooltips (sidebar items, the header's sidebar trigger) are on the first screen of every page, and
 * Radix's tooltip brings floating-ui and its dismissable layer with it (about 20 KB gzip). These tooltips only
 * label a control on hover or keyboard focus, so this small implementation keeps Radix's API for the parts the app
 * uses: controlled or uncontrolled `open`, `asChild` triggers, `side` and `sideOffset`, `role="tooltip"` linked to
 * the trigger with `aria-describedby` while open, and Escape to dismiss (docs/decisions/0008-web-code-splitting.md).
 */

type Side = 'top' | 'right' | 'bottom' | 'left';

interface TooltipContextValue {
  open: boolean;
  setOpen: (open: boolean) => void;
  trigger: React.RefObject<HTMLElement | null>;
  contentId: string;
}

const TooltipContext = React.createContext<TooltipContextValue | null>(null);

function useTooltip(component: string): TooltipContextValue {
  const context = React.useContext(TooltipContext);
  if (!context) throw new Error(`${component} must be used within a Tooltip.`);
  return context;
}

/** Kept for API compatibility with Radix: these tooltips always open without delay. */
function TooltipProvider({ children }: { children: React.ReactNode; delayDuration?: number }) {
  return <>{children}</>;
}

function Tooltip({
  open: openProp,
  defaultOpen = false,
  onOpenChange,
  children,
}: {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: React.ReactNode;
}) {
  const [uncontrolled, setUncontrolled] = React.useState(defaultOpen);
  const open = openProp ?? uncontrolled;
  const trigger = React.useRef<HTMLElement | null>(null);
  const contentId = React.useId();
  const setOpen = React.useCallback(
    (next: boolean) => {
      setUncontrolled(next);
      onOpenChange?.(next);
    },
    [onOpenChange],
  );

  React.useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, setOpen]);

  const value = React.useMemo(
    () => ({ open, setOpen, trigger, contentId }),
    [open, setOpen, contentId],
  );
  return <TooltipContext.Provider value={value}>{children}</TooltipContext.Provider>;
}

function TooltipTrigger({
  asChild,
  ref,
  onPointerEnter,
  onPointerLeave,
  onPointerDown,
  onFocus,
  onBlur,
  ...props
}: React.ComponentProps<'button'> & { asChild?: boolean }) {
  const { open, setOpen, trigger, contentId } = useTooltip('TooltipTrigger');
  const Comp = asChild ? Slot : 'button';
  // A focus that follows a pointer press is the press itself, not keyboard navigation: no tooltip for it.
  const pressed = React.useRef(false);
  const setRefs = React.useCallback(
    (node: HTMLButtonElement | null) => {
      trigger.current = node;
      if (typeof ref === 'function') ref(node);
      else if (ref) ref.current = node;
    },
    [ref, trigger],
  );
  return (
    <Comp
      data-slot="tooltip-trigger"
      aria-describedby={open ? contentId : undefined}
      {...props}
      ref={setRefs}
      onPointerEnter={(event: React.PointerEvent<HTMLButtonElement>) => {
        onPointerEnter?.(event);
        if (event.pointerType !== 'touch') setOpen(true);
      }}
      onPointerLeave={(event: React.PointerEvent<HTMLButtonElement>) => {
        onPointerLeave?.(event);
        setOpen(false);
      }}
      onPointerDown={(event: React.PointerEvent<HTMLButtonElement>) => {
        onPointerDown?.(event);
        pressed.current = true;
        setOpen(false);
      }}
      onFocus={(event: React.FocusEvent<HTMLButtonElement>) => {
        onFocus?.(event);
        if (!pressed.current) setOpen(true);
        pressed.current = false;
      }}
      onBlur={(event: React.FocusEvent<HTMLButtonElement>) => {
        onBlur?.(event);
        setOpen(false);
      }}
    />
  );
}

const ARROW_CLASS: Record<Side, string> = {
  top: 'top-full left-1/2 -translate-x-1/2 -translate-y-1/2',
  bottom: 'bottom-full left-1/2 -translate-x-1/2 translate-y-1/2',
  left: 'left-full top-1/2 -translate-x-1/2 -translate-y-1/2',
  right: 'right-full top-1/2 translate-x-1/2 -translate-y-1/2',
};

/** Where the content goes, centred on the trigger's side (the only alignment the app uses). */
function place(anchor: DOMRect, size: DOMRect, side: Side, offset: number) {
  const centreX = anchor.left + anchor.width / 2 - size.width / 2;
  const centreY = anchor.top + anchor.height / 2 - size.height / 2;
  const left =
    side === 'right'
      ? anchor.right + offset
      : side === 'left'
        ? anchor.left - offset - size.width
        : centreX;
  const top =
    side === 'bottom'
      ? anchor.bottom + offset
      : side === 'top'
        ? anchor.top - offset - size.height
        : centreY;
  const maxLeft = window.innerWidth - size.width - 4;
  return { left: Math.max(4, Math.min(left, maxLeft)), top: Math.max(4, top) };
}

function TooltipContent({
  className,
  side = 'top',
  sideOffset = 4,
  children,
  style,
  align,
  ...props
}: React.ComponentProps<'div'> & { side?: Side; sideOffset?: number; align?: 'center' }) {
  const { open, trigger, contentId } = useTooltip('TooltipContent');
  const content = React.useRef<HTMLDivElement>(null);
  const [position, setPosition] = React.useState<{ left: number; top: number } | null>(null);

  React.useLayoutEffect(() => {
    const anchor = trigger.current;
    if (!open || !anchor || !content.current) {
      setPosition(null);
      return;
    }
    const offset = sideOffset + 5; // room for the arrow
    setPosition(
      place(anchor.getBoundingClientRect(), content.current.getBoundingClientRect(), side, offset),
    );
  }, [open, side, sideOffset, trigger]);

  if (!open) return null;
  return createPortal(
    <div
      ref={content}
      id={contentId}
      role="tooltip"
      data-slot="tooltip-content"
      data-side={side}
      data-align={align ?? 'center'}
      style={{
        position: 'fixed',
        left: position?.left ?? 0,
        top: position?.top ?? 0,
        visibility: position ? 'visible' : 'hidden',
        ...style,
      }}
      className={cn(
        'pointer-events-none z-50 w-fit animate-fade-in rounded-md bg-ink px-3 py-1.5 text-xs text-balance text-paper',
        className,
      )}
      {...props}
    >
      {children}
      <span
        aria-hidden="true"
        className={cn('absolute size-2.5 rotate-45 rounded-[2px] bg-ink', ARROW_CLASS[side])}
      />
    </div>,
    document.body,
  );
}

export { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger };
