import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { chatError } from '../../errors.ts';
import { actorOf } from '../../http/context.ts';
import { queryOf, stringParam } from '../../http/params.ts';
import type { ChatServices } from '../services.ts';
import type { UploadKind } from './service.ts';

/** Absolute base URL of the chat API as the client sees it (uploads must be absolute http(s) URLs). */
function baseURLOf(
  app: FastifyInstance,
  request: FastifyRequest,
  configured: string | undefined,
): string {
  if (configured) return configured.replace(/\/$/, '');
  return `${request.protocol}://${request.host}${app.prefix}`;
}

export function registerUploadRoutes(
  app: FastifyInstance,
  services: ChatServices,
  options: { maxBytes: number; publicBaseURL?: string },
): void {
  if (!app.hasRequestDecorator('isMultipart')) {
    void app.register(multipart, {
      limits: { fileSize: options.maxBytes, files: 1, fields: 5 },
      throwFileSizeLimit: true,
    });
  }

  async function handle(
    request: FastifyRequest,
    kind: UploadKind,
    channel: { type: string; id: string } | null,
  ) {
    if (!request.isMultipart())
      throw chatError.input('uploads must be multipart/form-data with a "file" part');
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw chatError.input('the "file" part is missing');
    return services.uploads.upload(
      actorOf(request),
      channel,
      kind,
      {
        filename: part.filename,
        mimeType: part.mimetype,
        content: part.file,
        truncated: () => part.file.truncated,
      },
      baseURLOf(app, request, options.publicBaseURL),
    );
  }

  for (const kind of ['image', 'file'] as const) {
    app.post<{ Params: { type: string; id: string } }>(`/channels/:type/:id/${kind}`, (request) =>
      handle(request, kind, { type: request.params.type, id: request.params.id }),
    );
    app.post(`/uploads/${kind}`, (request) => handle(request, kind, null));
    const remove = async (request: FastifyRequest) => {
      await services.uploads.remove(
        actorOf(request),
        stringParam(queryOf(request.query).url, 'url'),
      );
      return {};
    };
    app.delete(`/channels/:type/:id/${kind}`, remove);
    app.delete(`/uploads/${kind}`, remove);
  }

  app.get<{ Params: { appId: string; fileId: string; name: string } }>(
    '/uploads/:appId/:fileId/:name',
    { config: { public: true } },
    async (request, reply) => {
      const opened = await services.uploads.open(
        request.params.appId,
        request.params.fileId,
        request.params.name,
      );
      if (!opened) throw chatError.notFound('file does not exist');
      const inline =
        opened.meta.mimeType.startsWith('image/') ||
        opened.meta.mimeType.startsWith('video/') ||
        opened.meta.mimeType.startsWith('audio/');
      return reply
        .header('content-type', opened.meta.mimeType || 'application/octet-stream')
        .header('content-length', String(opened.meta.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename="${opened.meta.name}"`,
        )
        .send(opened.content);
    },
  );
}
