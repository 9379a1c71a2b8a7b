import { isSectChannel, type ChannelRef } from '@daohuu/domain';
import type { Channel } from 'stream-chat';

/**
 * The avatar of a public sect channel: a jade seal with the first letter of its name in gold, so the three public
 * channels read as places rather than as a pile of member avatars. Other channels keep their members' avatars.
 */
export function sectEmblem(name: string): string {
  const letter = Array.from(name.trim())[0]?.toLocaleUpperCase('vi-VN') ?? '?';
  const escaped = letter.replace(/[<>&"']/g, '');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="#2f7d68"/><stop offset="1" stop-color="#123f35"/></linearGradient></defs>` +
    `<rect width="64" height="64" rx="32" fill="url(#g)"/>` +
    `<circle cx="32" cy="32" r="27" fill="none" stroke="#e2b95a" stroke-width="2" opacity="0.85"/>` +
    `<text x="32" y="42" text-anchor="middle" font-family="Noto Serif, Georgia, serif" font-size="28" ` +
    `font-weight="700" fill="#f0cf7a">${escaped}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/**
 * The emblem for an official sect channel, or undefined for every other channel: a public channel someone else
 * created keeps its own look and never passes for a sect.
 */
export function channelEmblem(
  channel: Channel | undefined,
  sects: readonly ChannelRef[],
): string | undefined {
  if (!channel || !isSectChannel(channel, sects)) return undefined;
  if (channel.data?.image) return undefined;
  return sectEmblem(channel.data?.name ?? channel.id ?? '');
}
