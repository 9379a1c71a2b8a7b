import { LayersIcon, MessagesSquareIcon, SparklesIcon, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useLoginDialog } from '@/lib/login-dialog';
import { MountainScene } from './mountain-scene';

const FEATURES: { icon: LucideIcon; title: string; description: string }[] = [
  {
    icon: SparklesIcon,
    title: 'Theo dõi tu vi',
    description: 'Mỗi điểm tu vi đưa đạo hữu đến gần cảnh giới mới. Xem tiến độ đột phá từng ngày.',
  },
  {
    icon: LayersIcon,
    title: 'Bốn mươi mốt cảnh giới',
    description: 'Từ Luyện Khí Tầng 1 đến Tiên Nhân, con đường tu luyện được ghi rõ từng bậc.',
  },
  {
    icon: MessagesSquareIcon,
    title: 'Đàm đạo cùng đồng môn',
    description: 'Gặp gỡ đạo hữu bốn phương, trao đổi tâm đắc và cùng nhau tiến bước.',
  },
];

/** The home screen for guests: an invitation to begin. */
export function Landing() {
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
          Cộng đồng tu tiên
        </p>
        <h1 className="max-w-2xl text-4xl leading-tight font-semibold sm:text-5xl">
          Bước lên con đường tu tiên cùng các đạo hữu
        </h1>
        <p className="mt-4 max-w-xl text-lg text-paper/80">
          Tích lũy tu vi, vượt qua từng cảnh giới từ Luyện Khí đến Tiên Nhân, và kết giao với những
          người cùng chí hướng.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Button variant="gold" size="lg" onClick={() => openLogin()}>
            Đăng nhập để bắt đầu tu luyện
          </Button>
          <Button
            variant="outline"
            size="lg"
            asChild
            className="border-paper/30 bg-transparent text-paper hover:bg-paper/10 hover:text-paper dark:bg-transparent"
          >
            <Link to={paths.realms.getHref()}>Xem bảng cảnh giới</Link>
          </Button>
        </div>
      </section>
      <section aria-labelledby="landing-features" className="grid gap-4">
        <h2 id="landing-features" className="sr-only">
          Điều đạo hữu sẽ tìm thấy
        </h2>
        <div className="grid gap-4 md:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, description }) => (
            <Card key={title} className="gap-3 transition-shadow hover:shadow-md">
              <CardHeader>
                <span className="mb-2 flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary ring-1 ring-primary/20">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <CardTitle className="text-lg">{title}</CardTitle>
              </CardHeader>
              <CardContent>
                <CardDescription className="text-[0.95rem] leading-relaxed">
                  {description}
                </CardDescription>
              </CardContent>
            </Card>
          ))}
        </div>
      </section>
    </div>
  );
}
