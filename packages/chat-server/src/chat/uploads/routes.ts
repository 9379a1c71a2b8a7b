import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { chatError } from '../../errors.ts';
import { contextOf } from '../../http/context.ts';
import { queryOf, stringParam } from '../../http/params.ts';
import type { ChatServices } from '../services.ts';
import { sendStoredFile } from './serve.ts';
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
    // Refuse a declared body far over the limit before reading it (multipart framing adds a little).
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > options.maxBytes + 64 * 1024)
      throw chatError.payloadTooBig('the upload is larger than the server limit');
    if (!request.isMultipart())
      throw chatError.input('uploads must be multipart/form-data with a "file" part');
    const part = await request.file();
    if (!part || part.fieldname !== 'file')
      throw chatError.input('File is required: send it as the multipart part "file"');
    const { app: config, actor } = contextOf(request);
    return services.uploads.upload(
      config,
      actor,
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
        contextOf(request).actor,
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
      return sendStoredFile(request, reply, opened);
    },
  );
}
