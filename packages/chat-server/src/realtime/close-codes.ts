/*
 * Websocket close codes the server sends. stream-chat treats 1000 as final (connectUser fails, no reconnect); after
 * any other code it reconnects with a growing, jittered delay and then re-queries its active channels
 * (node_modules/stream-chat/src/connection.ts onclose → _reconnect → client.recoverState), which is how a client
 * catches up on whatever it missed while it was away.
 */

/** This node is going away (shutdown); the client reconnects, through the load balancer, to another one. */
export const CLOSE_SERVICE_RESTART = 1012;

/**
 * This node cannot serve the socket right now (database unreachable, event bus subscription lost). No error frame
 * may precede it: the client would take that as a final refusal of connectUser.
 */
export const CLOSE_TRY_AGAIN = 1013;
