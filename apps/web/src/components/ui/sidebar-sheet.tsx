import type * as React from 'react';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '@/components/ui/sheet';
import { useT } from '@/i18n';

/** The sidebar on small screens, in a sheet; its own chunk, since desktop visits never show it (sidebar.tsx). */
export function SidebarSheet({
  open,
  onOpenChange,
  side,
  width,
  children,
  ...props
}: React.ComponentProps<'div'> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  side: 'left' | 'right';
  width: string;
}) {
  const t = useT();
  return (
    <Sheet open={open} onOpenChange={onOpenChange} {...props}>
      <SheetContent
        data-sidebar="sidebar"
        data-slot="sidebar"
        data-mobile="true"
        className="w-(--sidebar-width) border-sidebar-border bg-sidebar p-0 text-sidebar-foreground"
        style={{ '--sidebar-width': width } as React.CSSProperties}
        side={side}
        showCloseButton={false}
      >
        {/* Accessible names of the sheet (docs/product-rules.md §4); kept in English in both languages, exactly as specified. */}
        <SheetHeader className="sr-only">
          <SheetTitle>{t('ui.sidebar')}</SheetTitle>
          <SheetDescription>{t('ui.sidebarDescription')}</SheetDescription>
        </SheetHeader>
        <div className="flex h-full w-full flex-col">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
