import { z } from 'zod';

const positive = (fallback: number, meaning: string) =>
  z.number().int().positive().default(fallback).describe(meaning);

/**
 * The long-poll fallback (realtime/longpoll.ts): how long a poll is held, when an abandoned connection expires and
 * how much one client may hold on this node. stream-chat waits 30 s for a poll answer, so `holdMs` must stay below.
 */
export const longPollConfigSchema = z
  .object({
    holdMs: z
      .number()
      .int()
      .min(10)
      .max(25_000)
      .default(20_000)
      .describe('A poll with nothing to deliver is answered with no events after this long.'),
    idleMs: positive(
      45_000,
      'A connection nobody polls for this long is closed (its watches and presence end).',
    ),
    maxQueuedEvents: positive(
      500,
      'Events waiting for the next poll; past this the connection is dropped and the client reconnects.',
    ),
    maxQueuedBytes: positive(
      2 * 1024 * 1024,
      'Bytes of events waiting for the next poll; past this the connection is dropped.',
    ),
    perUser: positive(10, 'Open long-poll connections per user on one node.'),
    perAddress: positive(50, 'Open long-poll connections per client address on one node.'),
    perNode: positive(10_000, 'Open long-poll connections on one node, all callers together.'),
  })
  .prefault({});

export type LongPollConfig = z.output<typeof longPollConfigSchema>;
