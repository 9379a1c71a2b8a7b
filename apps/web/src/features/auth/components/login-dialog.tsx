import * as React from 'react';
import { LogoMark } from '@/components/logo-mark';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useQuery } from '@tanstack/react-query';
import { meQueryOptions } from '@/lib/auth';
import { useLoginDialog, type LoginTab } from '@/lib/login-dialog';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';
import { useT } from '@/i18n';

/** The one login dialog of the app, driven by `useLoginDialog()`; mounted once at the root. */
export function LoginDialog() {
  const t = useT();
  const { open, tab, setTab, closeLogin } = useLoginDialog();
  // Radix returns focus only to a Dialog.Trigger; this dialog is opened from anywhere, so it remembers
  // whatever had focus when it opened and gives focus back there.
  const openerRef = React.useRef<HTMLElement | null>(null);
  // Someone already signed in has nothing to do here: an old `?dang-nhap=1` link (or a second tab that signed in
  // meanwhile) closes the dialog and drops the parameter. Until the app shell knows who is signed in the dialog
  // waits, so a signed-in user never sees it flash. Read from the cache only: the dialog asks the server nothing.
  const me = useQuery({ ...meQueryOptions(), enabled: false });
  const signedIn = Boolean(me.data);
  const known = me.data !== undefined || me.isError;
  React.useEffect(() => {
    if (signedIn && open) closeLogin();
  }, [signedIn, open, closeLogin]);

  return (
    <Dialog
      open={open && known && !signedIn}
      onOpenChange={(next) => (next ? undefined : closeLogin())}
    >
      <DialogContent
        className="overflow-hidden sm:max-w-md"
        onOpenAutoFocus={() => {
          openerRef.current =
            document.activeElement instanceof HTMLElement ? document.activeElement : null;
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          const opener = openerRef.current;
          if (opener?.isConnected) opener.focus();
        }}
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 h-24 bg-linear-to-b from-gold/15 to-transparent"
        />
        <DialogHeader className="relative items-center text-center sm:text-center">
          <LogoMark className="size-10" />
          <DialogTitle>
            {tab === 'sign-up' ? t('auth.joinTitle') : t('auth.welcomeBackTitle')}
          </DialogTitle>
          <DialogDescription>
            {tab === 'sign-up' ? t('auth.joinDescription') : t('auth.welcomeBackDescription')}
          </DialogDescription>
        </DialogHeader>
        <Tabs value={tab} onValueChange={(value) => setTab(value as LoginTab)} className="relative">
          <TabsList className="mb-2 w-full">
            <TabsTrigger value="sign-in">{t('common.signIn')}</TabsTrigger>
            <TabsTrigger value="sign-up">{t('common.signUp')}</TabsTrigger>
          </TabsList>
          <TabsContent value="sign-in">
            <SignInForm />
          </TabsContent>
          <TabsContent value="sign-up">
            <SignUpForm />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}
