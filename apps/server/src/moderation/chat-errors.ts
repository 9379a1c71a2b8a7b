import { AppError, appError } from '../errors.ts';
import { ChatNotReadyError } from '../chat/chat-api.ts';

/** Stream's error codes the moderation screen answers specially (packages/chat-server src/errors.ts). */
const NOT_FOUND = 16;
const INPUT = 4;

/**
 * A failed chat call as the product API's error: not found and refused input keep their meaning, anything else is the
 * chat server being unavailable. The chat server's English message is never shown to the moderator.
 */
export function fromChatError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ChatNotReadyError) return appError.chatUnavailable();
  // stream-chat's ErrorFromResponse, read by shape: the class may come from its CJS or ESM build.
  const { code, status } = (error ?? {}) as { code?: unknown; status?: unknown };
  if (code === NOT_FOUND || status === 404) return appError.moderationNotFound();
  if (code === INPUT || status === 400) return appError.moderationRefused();
  return appError.chatUnavailable();
}

/** Runs one chat call and turns its failure into an `AppError`. */
export async function chatCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fromChatError(error);
  }
}
