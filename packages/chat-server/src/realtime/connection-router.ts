import { randomUUID } from 'node:crypto';
import type { PubSub, Unsubscribe } from '../pubsub/pubsub.ts';
import type { Connection } from './connection.ts';
import type { Hub } from './hub.ts';

/*
 * A REST call names the caller's connection (`connection_id`) to watch channels or follow presence with it. Behind a
 * load balancer without sticky sessions that call often reaches another node than the one holding the socket, so
 * the command travels on the bus to every node and the one that holds the connection applies it and answers. The
 * holder checks the connection belongs to the caller exactly as a local call does (`Hub.ownConnection`), so naming
 * someone else's connection id does nothing anywhere.
 */

export type ConnectionCommand =
  | { op: 'watch'; cids: string[] }
  | { op: 'unwatch'; cids: string[] }
  | { op: 'presence'; userIds: string[] };

/** What a command did: the cids it changed (newly watched, or no longer watched), and whose connection it was. */
export interface ConnectionChange {
  changed: string[];
  /** The connection's user id (an anonymous connection's own id for an anonymous caller). */
  userId: string;
}

/** The caller as a REST call knows it. */
export interface ConnectionCaller {
  connectionId: string | null;
  appId: string;
  userId: string | null;
}

export interface ConnectionRouter {
  /** Applies `command` to the caller's connection on whichever node holds it; null when no node does. */
  apply(caller: ConnectionCaller, command: ConnectionCommand): Promise<ConnectionChange | null>;
  close(): Promise<void>;
}

interface RouteRequest extends ConnectionCaller {
  id: string;
  replyTo: string;
  command: ConnectionCommand;
}

interface RouteReply {
  id: string;
  change: ConnectionChange;
}

const REQUESTS_TOPIC = 'connections:requests';
const repliesTopic = (node: string) => `connections:replies:${node}`;

/**
 * Bookkeeping the holder does after changing a connection (cluster-wide watcher counts), before it answers: the
 * caller's REST reply then already counts the new watcher.
 */
export type AfterConnectionChange = (
  connection: Connection,
  command: ConnectionCommand,
  changed: string[],
) => Promise<void>;

/** Longest wait for the holder's answer; a connection nobody holds (closed meanwhile) costs the caller this much. */
export const ROUTE_TIMEOUT_MS = 1_000;

function applyOn(hub: Hub, connection: Connection, command: ConnectionCommand): ConnectionChange {
  const userId = connection.userId;
  switch (command.op) {
    case 'watch':
      return { userId, changed: command.cids.filter((cid) => hub.watch(connection, cid)) };
    case 'unwatch':
      return { userId, changed: command.cids.filter((cid) => hub.unwatch(connection, cid)) };
    case 'presence':
      hub.followPresence(connection, command.userIds);
      return { userId, changed: [] };
  }
}

function isRouteRequest(value: unknown): value is RouteRequest {
  const request = value as Partial<RouteRequest> | null;
  return (
    typeof request === 'object' &&
    request !== null &&
    typeof request.id === 'string' &&
    typeof request.replyTo === 'string' &&
    typeof request.connectionId === 'string' &&
    typeof request.appId === 'string' &&
    (request.userId === null || typeof request.userId === 'string') &&
    typeof request.command === 'object' &&
    request.command !== null
  );
}

function parse(frame: string): unknown {
  try {
    return JSON.parse(frame);
  } catch {
    return null;
  }
}

async function applyHere(
  hub: Hub,
  after: AfterConnectionChange,
  caller: ConnectionCaller,
  command: ConnectionCommand,
): Promise<ConnectionChange | null> {
  const connection = hub.ownConnection(caller.connectionId, caller.appId, caller.userId);
  if (!connection) return null;
  const change = applyOn(hub, connection, command);
  if (change.changed.length > 0) await after(connection, command, change.changed);
  return change;
}

/** `clustered`: other nodes share the bus (Redis), so a connection may live on one of them. */
export async function createConnectionRouter(options: {
  hub: Hub;
  pubsub: PubSub;
  clustered: boolean;
  after: AfterConnectionChange;
  timeoutMs?: number;
}): Promise<ConnectionRouter> {
  const { hub, pubsub, after, timeoutMs = ROUTE_TIMEOUT_MS } = options;
  const here = (caller: ConnectionCaller, command: ConnectionCommand) =>
    applyHere(hub, after, caller, command);
  if (!options.clustered) return { apply: here, close: async () => {} };
  const node = randomUUID();
  const waiting = new Map<string, (change: ConnectionChange) => void>();
  const unsubscribes: Unsubscribe[] = [];
  unsubscribes.push(
    await pubsub.subscribe(REQUESTS_TOPIC, ({ frame }) => {
      const request = parse(frame);
      if (!isRouteRequest(request)) return;
      void here(request, request.command)
        .then((change) => {
          if (!change) return;
          const reply: RouteReply = { id: request.id, change };
          return pubsub.publish(request.replyTo, { frame: JSON.stringify(reply) });
        })
        .catch(() => {});
    }),
    await pubsub.subscribe(repliesTopic(node), ({ frame }) => {
      const reply = parse(frame) as Partial<RouteReply> | null;
      if (typeof reply?.id === 'string' && reply.change) waiting.get(reply.id)?.(reply.change);
    }),
  );
  return {
    async apply(caller, command) {
      const local = await here(caller, command);
      if (local || !caller.connectionId) return local;
      const id = randomUUID();
      const answered = new Promise<ConnectionChange | null>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(null);
        }, timeoutMs);
        waiting.set(id, (change) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(change);
        });
      });
      const request: RouteRequest = { ...caller, id, replyTo: repliesTopic(node), command };
      await pubsub.publish(REQUESTS_TOPIC, { frame: JSON.stringify(request) });
      return answered;
    },
    async close() {
      for (const unsubscribe of unsubscribes.splice(0)) await unsubscribe();
    },
  };
}
