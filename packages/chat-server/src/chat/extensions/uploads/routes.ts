import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { chatError } from '../../../errors.ts';
import { contextOf } from '../../../http/context.ts';
import { stringParam } from '../../../http/params.ts';
import { defineRoute } from '../../../http/route.ts';
import { channelParams, loose, noFields, queryValue } from '../../../http/schemas.ts';
import { ConcurrencyGate } from '../../../http/rate-limit.ts';
import type { Actor } from '../../core/access/access.ts';
import type { UploadsService } from './service.ts';
import { openUploadBody, type UploadBodyLimits } from './multipart.ts';
import { sendStoredFile } from './serve.ts';
import type { UploadKind } from './service.ts';

const FORWARDED_HOST = /^([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/**
 * A forwarded header's value as set by the outermost of the `hops` trusted proxies (each proxy appends its own), or
 * undefined without trusted proxies: otherwise anyone could make us hand out links to a host of their choosing.
 */
function forwarded(request: FastifyRequest, name: string, hops: number): string | undefined {
  if (hops === 0) return undefined;
  const header = request.headers[name];
  const values = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  return values.length > 0 ? values[Math.max(0, values.length - hops)] : undefined;
}

/**
 * Absolute base URL of the chat API as the client sees it (uploads must be absolute http(s) URLs): the configured
 * public URL, else the scheme and host a trusted proxy forwarded (so links are https behind TLS), else the request's.
 */
function baseURLOf(
  app: FastifyInstance,
  request: FastifyRequest,
  options: Pick<UploadRouteOptions, 'publicBaseURL' | 'trustProxy'>,
): string {
  if (options.publicBaseURL) return options.publicBaseURL.replace(/\/$/, '');
  const proto = forwarded(request, 'x-forwarded-proto', options.trustProxy)?.toLowerCase();
  const host = forwarded(request, 'x-forwarded-host', options.trustProxy);
  const scheme = proto === 'https' || proto === 'http' ? proto : request.protocol;
  const authority = host && FORWARDED_HOST.test(host) ? host : request.host;
  return `${scheme}://${authority}${app.prefix}`;
}

/** channel.deleteImage / deleteFile: the uploaded file's URL. */
const removeQuery = loose({ url: queryValue });

export interface UploadRouteOptions extends UploadBodyLimits {
  publicBaseURL?: string;
  /** Reverse proxies trusted to forward the scheme and host (the rate limits' `trustProxy`); 0 trusts none. */
  trustProxy: number;
  /** Uploads one user may have in flight on this node at once. */
  maxConcurrentPerUser: number;
}

/**
 * Counts the uploads each user has in flight on this node. Every upload holds a socket and a file descriptor until
 * it ends, so one account opening thousands of slow uploads could exhaust them for everybody.
 */
function inFlightCounter(limit: number) {
  const gate = new ConcurrencyGate();
  return (actor: Actor): (() => void) => {
    if (actor.isServer) return () => undefined;
    const release = gate.enter(`${actor.appId}\u0000${actor.userId ?? ''}`, limit);
    if (!release) throw chatError.rateLimited(`at most ${limit} uploads at a time per user`);
    return release;
  };
}

export function registerUploadRoutes(
  app: FastifyInstance,
  services: { uploads: UploadsService },
  options: UploadRouteOptions,
): void {
  if (!app.hasRequestDecorator('isMultipart')) {
    // Limits are passed again on every read (multipart.ts), so they hold even if a host registered the plugin.
    void app.register(multipart, { throwFileSizeLimit: true });
  }
  const enter = inFlightCounter(options.maxConcurrentPerUser);

  async function handle(
    request: FastifyRequest,
    kind: UploadKind,
    channel: { type: string; id: string } | null,
  ) {
    // Refuse a declared body far over the limit before reading it (multipart framing adds a little).
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > options.maxBytes + 64 * 1024)
      throw chatError.payloadTooBig('the upload is larger than the server limit');
    if (!request.isMultipart())
      throw chatError.input('uploads must be multipart/form-data with a "file" part');
    const { app: config, actor } = contextOf(request);
    const leave = enter(actor);
    const body = openUploadBody(request, options);
    try {
      return await services.uploads.upload(
        config,
        actor,
        channel,
        kind,
        body,
        baseURLOf(app, request, options),
      );
    } finally {
      body.close();
      leave();
    }
  }

  for (const kind of ['image', 'file'] as const) {
    registerUploadKind(app, kind, (request, channel) => handle(request, kind, channel));
    registerRemoveKind(app, kind, services.uploads);
  }

  defineRoute(app, {
    method: 'GET',
    url: '/uploads/:appId/:fileId/:name',
    config: { public: true },
    params: z.object({ appId: z.string(), fileId: z.string(), name: z.string() }),
    query: noFields,
    handler: async ({ params }, request, reply) => {
      const opened = await services.uploads.open(params.appId, params.fileId, params.name);
      if (!opened) throw chatError.notFound('file does not exist');
      return sendStoredFile(request, reply, opened);
    },
  });
}

type UploadHandler = (
  request: FastifyRequest,
  channel: { type: string; id: string } | null,
) => Promise<unknown>;

/** channel.sendImage / sendFile and client-level uploads of one kind. */
function registerUploadKind(app: FastifyInstance, kind: UploadKind, handle: UploadHandler): void {
  defineRoute(app, {
    method: 'POST',
    url: `/channels/:type/:id/${kind}`,
    params: channelParams,
    query: noFields,
    multipart: true,
    handler: ({ params }, request) => handle(request, params),
  });
  defineRoute(app, {
    method: 'POST',
    url: `/uploads/${kind}`,
    query: noFields,
    multipart: true,
    handler: (_input, request) => handle(request, null),
  });
}

/** channel.deleteImage / deleteFile: the file is named by its URL, whichever path the client uses. */
function registerRemoveKind(app: FastifyInstance, kind: UploadKind, uploads: UploadsService): void {
  const remove = async ({ query }: { query: { url?: string } }, request: FastifyRequest) => {
    await uploads.remove(contextOf(request).actor, stringParam(query.url, 'url'));
    return {};
  };
  defineRoute(app, {
    method: 'DELETE',
    url: `/channels/:type/:id/${kind}`,
    params: channelParams,
    query: removeQuery,
    handler: remove,
  });
  defineRoute(app, {
    method: 'DELETE',
    url: `/uploads/${kind}`,
    query: removeQuery,
    handler: remove,
  });
}
