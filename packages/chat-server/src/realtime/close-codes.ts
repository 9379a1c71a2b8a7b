/*
 * Websocket close codes the server sends. stream-chat treats 1000 as final (connectUser fails, no reconnect); after
 * any other code it reconnects with a growing, jittered delay and then re-queries its active channels
 * (node_modules/stream-chat/src/connection.ts onclose → _reconnect → client.recoverState), which is how a client
 * catches up on whatever it missed while it was away.
 */

/** Final: sent after an auth error frame, so the client stops (connectUser rejects) instead of retrying. */
export const CLOSE_PERMANENT = 1000;

/** A socket that broke the frame limit; the client reconnects, and its handshakes are limited too. */
export const CLOSE_POLICY_VIOLATION = 1008;

/** This node is going away (shutdown); the client reconnects, through the load balancer, to another one. */
export const CLOSE_SERVICE_RESTART = 1012;

/**
 * This node cannot serve the socket right now (database unreachable, event bus subscription lost: then no error
 * frame may precede it, or a first connectUser would take it as a final refusal), or the caller is rate-limited
 * (after a code 9 frame, which the client retries with back-off).
 */
export const CLOSE_TRY_AGAIN = 1013;
