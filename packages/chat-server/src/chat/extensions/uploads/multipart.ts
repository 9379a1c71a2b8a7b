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
    // A part without a filename (stream-chat in Node sends a Buffer that way) has none at run time, whatever the
    // type says; it is stored under the generic name.
    filename: (part.filename as string | undefined) ?? '',
    mimeType: part.mimetype,
    content,
    truncated: () => part.file.truncated,
  };
}

/** One upload body being read: its request, its timers and what the parser has handed out so far. */
interface BodyState {
  request: FastifyRequest;
  raw: FastifyRequest['raw'];
  limits: UploadBodyLimits;
  failure?: ChatError;
  /** Settles (rejected) the moment the body is given up on, so a pending read stops waiting for the parser. */
  aborted: Promise<never>;
  rejectAborted: (error: ChatError) => void;
  parts?: AsyncIterableIterator<Multipart>;
  content?: PassThrough;
  deadline?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
  // The listeners, kept so the very same functions can be removed again.
  touch: () => void;
  stopTimers: () => void;
  onClose: () => void;
}

function abort(state: BodyState, error: ChatError): void {
  if (state.failure || state.raw.complete) return;
  state.failure = error;
  stopTimers(state);
  state.content?.destroy(error);
  state.rejectAborted(error);
}

function touch(state: BodyState): void {
  clearTimeout(state.idle);
  state.idle = setTimeout(
    () => abort(state, new ChatError('RequestTimeoutError', 'the upload stopped arriving')),
    state.limits.idleTimeoutMs,
  );
}

function stopTimers(state: BodyState): void {
  clearTimeout(state.deadline);
  clearTimeout(state.idle);
  state.raw.off('data', state.touch);
  state.raw.off('end', state.stopTimers);
}

function createBodyState(request: FastifyRequest, limits: UploadBodyLimits): BodyState {
  let rejectAborted: (error: ChatError) => void = () => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    rejectAborted = reject;
  });
  aborted.catch(() => undefined);
  const state: BodyState = {
    request,
    raw: request.raw,
    limits,
    aborted,
    rejectAborted,
    touch: () => touch(state),
    stopTimers: () => stopTimers(state),
    onClose: () => abort(state, chatError.input('the client closed the upload before sending it')),
  };
  return state;
}

/** Starts the parser on the first read; the idle timer runs from then on. */
function startParts(state: BodyState): AsyncIterableIterator<Multipart> {
  const parts = state.request.parts({
    limits: {
      fileSize: state.limits.maxBytes,
      files: 1,
      fields: 5,
      parts: 10,
      fieldSize: 64 * 1024,
      headerPairs: 20,
    },
  });
  state.parts = parts;
  return parts;
}

/** The next multipart part, or the reason the body cannot give one (timeout, client gone, bad framing). */
async function next(state: BodyState): Promise<Multipart | undefined> {
  if (state.failure) throw state.failure;
  let pending: Promise<IteratorResult<Multipart>>;
  if (state.parts) pending = state.parts.next();
  else {
    pending = startParts(state).next();
    // The first next() piped the request into the parser; a 'data' listener added before would swallow the body.
    state.raw.on('data', state.touch);
    if (!state.raw.complete) state.touch();
  }
  try {
    const result = await Promise.race([pending, state.aborted]);
    return result.done ? undefined : result.value;
  } catch (error) {
    throw state.failure ?? toUploadError(error);
  }
}

async function readFile(state: BodyState): Promise<UploadInput> {
  for (;;) {
    const part = await next(state);
    if (!part) throw chatError.input(FILE_REQUIRED);
    if (part.type !== 'file') continue; // the client's optional `user` field carries nothing we need
    if (part.fieldname !== 'file') {
      part.file.destroy();
      throw chatError.input(FILE_REQUIRED);
    }
    const input = fileInput(part);
    state.content = input.content;
    return input;
  }
}

async function finishBody(state: BodyState): Promise<void> {
  for (;;) {
    const part = await next(state);
    if (!part) return;
    if (part.type === 'file') {
      part.file.destroy();
      throw chatError.input('an upload carries exactly one file, in the part "file"');
    }
  }
}

function closeBody(state: BodyState): void {
  stopTimers(state);
  state.raw.off('close', state.onClose);
  // A refused upload may leave the parser waiting on a part nobody reads; destroying it stops the parser, and
  // Node closes the connection of a request answered before its body ended.
  state.content?.destroy();
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
  const state = createBodyState(request, limits);
  state.deadline = setTimeout(
    () => abort(state, new ChatError('RequestTimeoutError', 'the upload took too long to arrive')),
    limits.timeoutMs,
  );
  state.raw.on('close', state.onClose);
  state.raw.on('end', state.stopTimers);
  return {
    file: () => readFile(state),
    finish: () => finishBody(state),
    close: () => closeBody(state),
  };
}
