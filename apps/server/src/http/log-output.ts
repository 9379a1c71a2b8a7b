import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Config } from '../config.ts';

/** pino's numeric levels, as a person reads them. */
const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

const COLORS: Record<string, string> = {
  WARN: '33',
  ERROR: '31',
  FATAL: '31',
  DEBUG: '90',
  TRACE: '90',
};

/** pino's own fields, and those the line already shows: everything else is printed as key=value. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return date.toTimeString().slice(0, 8);
}

function extras(entry: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (SHOWN.has(key) || value === undefined) continue;
    parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return parts.length > 0 ? `  ${parts.join(' ')}` : '';
}

function errorText(err: unknown): string {
  if (typeof err !== 'object' || err === null) return '';
  const { stack, message } = err as { stack?: unknown; message?: unknown };
  const text = typeof stack === 'string' ? stack : typeof message === 'string' ? message : '';
  return text ? `\n    ${text.split('\n').join('\n    ')}` : '';
}

/**
 * One pino JSON line as one readable line: `12:04:05 INFO  message  [request id]  key=value`, the error's stack
 * indented under it. A line that is not JSON passes through unchanged.
 */
export function prettyLogLine(line: string, color: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const level = LEVEL_NAMES[Number(entry.level)] ?? 'LOG';
  const tag =
    color && COLORS[level] ? `\x1b[${COLORS[level]}m${level.padEnd(5)}\x1b[0m` : level.padEnd(5);
  const reqId = typeof entry.reqId === 'string' ? `  [${entry.reqId}]` : '';
  const msg = typeof entry.msg === 'string' ? entry.msg : '';
  return `${clock(entry.time)} ${tag} ${msg}${reqId}${extras(entry)}${errorText(entry.err)}`;
}

/** A stream pino writes JSON lines into and a terminal reads pretty lines from. */
function prettyStream(out: NodeJS.WriteStream): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line) out.write(`${prettyLogLine(line, out.isTTY === true)}\n`);
      done();
    },
  });
}

/** Whether the log is written for a person (a terminal) or for a machine (JSON lines). */
export function logIsPretty(
  config: Pick<Config, 'logFormat'>,
  out: NodeJS.WriteStream = process.stdout,
): boolean {
  return config.logFormat === 'pretty' || (config.logFormat === 'auto' && out.isTTY === true);
}

/** One line per request, at debug, when it completes: at the default info level a running server stays quiet. */
class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const fields = {
      method: request.method,
      url: request.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) reply.log.error({ ...fields, err: error }, 'request failed');
    else reply.log.debug(fields, 'request');
  }
}

/**
 * The product server's logger and request ids. Every response carries `x-request-id`, the id each of that
 * request's log lines (errors included) carries, so a person can find the log of what they saw.
 */
export function loggingOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
): FastifyServerOptions {
  return {
    logger: {
      level: config.logLevel,
      ...(logIsPretty(config) ? { stream: prettyStream(process.stdout) } : {}),
    },
    logController: new RequestLog(),
    // Never taken from the request: a client could otherwise write any id into our log.
    requestIdHeader: false,
    genReqId: () => randomUUID().slice(0, 8),
  };
}

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
}
