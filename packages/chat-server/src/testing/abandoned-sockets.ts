import WebSocket from 'ws';

/**
 * For test processes that run the real `stream-chat` client in Node: gives a client websocket that its owner has
 * abandoned somewhere to send its errors.
 *
 * When the client replaces a connection (a reconnect, a token refresh, a disconnect) it removes every listener of the
 * old socket and then closes it (node_modules/stream-chat/src/connection.ts `_destroyCurrentWSConnection`). In a
 * browser that is harmless. In Node, `ws` reports a close during the opening handshake, or any later socket error, as
 * an `error` event; with no listener left, Node raises it as an uncaught exception ("WebSocket was closed before the
 * connection was established"), which fails the whole test run although nothing went wrong on either side.
 *
 * Only a socket stripped of all its `error` listeners gets the sink: a socket someone still listens to is untouched,
 * and so is every error that has an owner.
 */
export function sinkErrorsOfAbandonedSockets(): void {
  const prototype = WebSocket.prototype as WebSocket & { [patched]?: true };
  if (prototype[patched]) return;
  const removeAllListeners = prototype.removeAllListeners;
  prototype.removeAllListeners = function (this: WebSocket, event?: string | symbol) {
    removeAllListeners.call(this, event);
    if ((event === undefined || event === 'error') && this.listenerCount('error') === 0)
      this.on('error', ignore);
    return this;
  };
  prototype[patched] = true;
}

const patched = Symbol('abandoned-socket errors sunk');

function ignore(): void {}
