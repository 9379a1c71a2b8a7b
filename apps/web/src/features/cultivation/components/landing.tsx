import { LayersIcon, MessagesSquareIcon, SparklesIcon, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useLoginDialog, loginTrigger } from '@/lib/login-dialog';
import { MountainScene } from './mountain-scene';
import { type MessageKey, useT } from '@/i18n';

const FEATURES: { icon: LucideIcon; title: MessageKey; description: MessageKey }[] = [
  { icon: SparklesIcon, title: 'landing.trackTitle', description: 'landing.trackDescription' },
  { icon: LayersIcon, title: 'landing.realmsTitle', description: 'landing.realmsDescription' },
  { icon: MessagesSquareIcon, title: 'landing.chatTitle', description: 'landing.chatDescription' },
];

/** The home screen for guests: an invitation to begin. */
export function Landing() {
  const t = useT();
  const { openLogin } = useLoginDialog();
  return (
    <div className="grid gap-10">
      <section className="relative isolate overflow-hidden rounded-2xl border border-gold/30 bg-linear-to-br from-[oklch(0.3_0.055_172)] via-[oklch(0.25_0.045_176)] to-[oklch(0.2_0.03_180)] px-6 py-12 text-paper shadow-lg sm:px-10 sm:py-16">
        <MountainScene className="absolute inset-x-0 bottom-0 -z-10 h-2/3 w-full" />
        <div
          aria-hidden="true"
          className="absolute -top-24 right-[-6rem] -z-10 size-72 rounded-full bg-gold/25 blur-3xl"
        />
        <div
          aria-hidden="true"
          className="absolute top-10 right-12 -z-10 size-14 rounded-full bg-linear-to-br from-[#f6e7b8] to-gold opacity-80 shadow-[0_0_40px_10px_oklch(0.8_0.13_82/0.35)] max-sm:hidden"
        />
        <p className="mb-3 text-sm font-medium tracking-[0.2em] text-gold uppercase">
          {t('landing.eyebrow')}
        </p>
        <h1 className="max-w-2xl text-4xl leading-tight font-semibold sm:text-5xl">
          {t('landing.title')}
        </h1>
        <p className="mt-4 max-w-xl text-lg text-paper/80">{t('landing.lead')}</p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Button variant="gold" size="lg" {...loginTrigger} onClick={() => openLogin()}>
            {t('landing.start')}
          </Button>
          <Button
            variant="outline"
            size="lg"
            asChild
            className="border-paper/30 bg-transparent text-paper hover:bg-paper/10 hover:text-paper dark:bg-transparent"
          >
            <Link to={paths.realms.getHref()}>{t('landing.seeRealms')}</Link>
          </Button>
        </div>
      </section>
      <section aria-labelledby="landing-features" className="grid gap-4">
        <h2 id="landing-features" className="sr-only">
          {t('landing.featuresHeading')}
        </h2>
        <div className="grid gap-4 md:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, description }) => (
            <Card key={title} className="gap-3 transition-shadow hover:shadow-md">
              <CardHeader>
                <span className="mb-2 flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary ring-1 ring-primary/20">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <CardTitle className="text-lg">{t(title)}</CardTitle>
              </CardHeader>
              <CardContent>
                <CardDescription className="text-[0.95rem] leading-relaxed">
                  {t(description)}
                </CardDescription>
              </CardContent>
            </Card>
          ))}
        </div>
      </section>
    </div>
  );
}
