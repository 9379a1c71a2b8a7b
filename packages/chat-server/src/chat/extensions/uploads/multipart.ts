import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { finished, PassThrough } from 'node:stream';
import { ChatError, chatError } from '../../../errors.ts';
import type { UploadBody, UploadInput } from './service.ts';

export interface UploadBodyLimits {
  maxBytes: number;
  /** Longest time the whole body may take to arrive. */
  timeoutMs: number;
  /** Longest silence while the server waits for more of the body. */
  idleTimeoutMs: number;
}

const FILE_REQUIRED = 'File is required: send it as the multipart part "file"';

/** Where busboy's own errors (framing, limits) and the plugin's end up: always the client's input, never a 500. */
function toUploadError(error: unknown): ChatError {
  if (error instanceof ChatError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return chatError.payloadTooBig('the upload is larger than the server limit');
    case 'FST_FILES_LIMIT':
      return chatError.input(`an upload carries exactly one file, in the part "file"`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return chatError.input('the upload has too many multipart parts');
    case 'FST_MP_PREMATURE_CLOSE':
      return chatError.input('the upload ended before its multipart body did');
    default:
      return chatError.input(`the multipart body is malformed: ${message}`);
  }
}

/**
 * The file part as the service reads it. Busboy's stream is wrapped so that its failures arrive as Stream errors
 * and so that a consumer giving up (a refused or cut-off upload) also stops the parser.
 */
function fileInput(part: MultipartFile): UploadInput & { content: PassThrough } {
  const content = new PassThrough();
  // finished() also reports a part the parser already failed before anyone listened (a body that ended mid-file).
  finished(part.file, (error) => {
    if (error) content.destroy(toUploadError(error));
  });
  content.on('close', () => {
    if (!part.file.readableEnded) part.file.destroy();
  });
  part.file.pipe(content);
  return {
    filename: part.filename,
    mimeType: part.mimetype,
    content,
    truncated: () => part.file.truncated,
  };
}

/**
 * Reads the body of one upload request, bounded in time: it fails with code 23 when the whole body takes longer than
 * `timeoutMs` or stays silent for `idleTimeoutMs`, and stops when the client goes away. Either way the file stream is
 * destroyed, so whatever was writing it fails and removes the partial file. `close()` must be called once the
 * upload is answered; it stops the timers and the parser.
 */
export function openUploadBody(
  request: FastifyRequest,
  limits: UploadBodyLimits,
): UploadBody & { close(): void } {
  const raw = request.raw;
  let failure: ChatError | undefined;
  let rejectAborted: (error: ChatError) => void = () => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    rejectAborted = reject;
  });
  aborted.catch(() => undefined);
  let parts: AsyncIterableIterator<Multipart> | undefined;
  let content: PassThrough | undefined;
  let idle: NodeJS.Timeout | undefined;

  const abort = (error: ChatError) => {
    if (failure || raw.complete) return;
    failure = error;
    stopTimers();
    content?.destroy(error);
    rejectAborted(error);
  };
  const deadline = setTimeout(
    () => abort(new ChatError('RequestTimeoutError', 'the upload took too long to arrive')),
    limits.timeoutMs,
  );
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () => abort(new ChatError('RequestTimeoutError', 'the upload stopped arriving')),
      limits.idleTimeoutMs,
    );
  };
  function stopTimers() {
    clearTimeout(deadline);
    clearTimeout(idle);
    raw.off('data', touch);
    raw.off('end', stopTimers);
  }
  const onClose = () => abort(chatError.input('the client closed the upload before sending it'));
  raw.on('close', onClose);
  raw.on('end', stopTimers);

  /** The next multipart part, or the reason the body cannot give one (timeout, client gone, bad framing). */
  async function next(): Promise<Multipart | undefined> {
    if (failure) throw failure;
    let pending: Promise<IteratorResult<Multipart>>;
    if (parts) pending = parts.next();
    else {
      parts = request.parts({
        limits: {
          fileSize: limits.maxBytes,
          files: 1,
          fields: 5,
          parts: 10,
          fieldSize: 64 * 1024,
          headerPairs: 20,
        },
      });
      pending = parts.next();
      // The first next() piped the request into the parser; a 'data' listener added before would swallow the body.
      raw.on('data', touch);
      if (!raw.complete) touch();
    }
    try {
      const result = await Promise.race([pending, aborted]);
      return result.done ? undefined : result.value;
    } catch (error) {
      throw failure ?? toUploadError(error);
    }
  }

  return {
    async file() {
      for (;;) {
        const part = await next();
        if (!part) throw chatError.input(FILE_REQUIRED);
        if (part.type !== 'file') continue; // the client's optional `user` field carries nothing we need
        if (part.fieldname !== 'file') {
          part.file.destroy();
          throw chatError.input(FILE_REQUIRED);
        }
        const input = fileInput(part);
        content = input.content;
        return input;
      }
    },
    async finish() {
      for (;;) {
        const part = await next();
        if (!part) return;
        if (part.type === 'file') {
          part.file.destroy();
          throw chatError.input('an upload carries exactly one file, in the part "file"');
        }
      }
    },
    close() {
      stopTimers();
      raw.off('close', onClose);
      // A refused upload may leave the parser waiting on a part nobody reads; destroying it stops the parser, and
      // Node closes the connection of a request answered before its body ended.
      content?.destroy();
    },
  };
}
