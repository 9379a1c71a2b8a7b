import type { Config } from './config.ts';
import { DEMO_ADMIN, DEMO_USERS, DEMO_USER_PASSWORD } from './seed/demo-accounts.ts';

/**
 * What a newcomer needs after `npm start`, in one block: where to open the app and how to sign in. The
 * `listening on host:port` part is also what scripts and tests read to find the port.
 */
export function startupBanner(
  config: Pick<Config, 'publicUrl' | 'host' | 'seedDemo'>,
  port: number,
): string {
  const lines = [
    '',
    `  Đạo Hữu is running: open ${config.publicUrl}`,
    `  (listening on ${config.host}:${port})`,
  ];
  if (config.seedDemo) {
    lines.push(
      '',
      `  Demo admin:  ${DEMO_ADMIN.email} / ${DEMO_ADMIN.password}`,
      `  Demo users:  ${DEMO_USERS.slice(0, 2)
        .map((user) => user.email)
        .join(', ')}, … / ${DEMO_USER_PASSWORD}`,
      '  (SEED_DEMO=false starts without them)',
    );
  }
  return `${lines.join('\n')}\n`;
}
