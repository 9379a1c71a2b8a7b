import { randomBytes, randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** Text every benchmark message starts with: `BENCH@<step>@<send time in µs>@`. */
export const BENCH_MARKER = 'BENCH@';
const MARKER = Buffer.from(BENCH_MARKER);
const HEALTH_CHECK = Buffer.from('"health.check"');
const HEADER_END = Buffer.from('\r\n\r\n');

const OPCODE_CONTINUATION = 0x0;
const OPCODE_TEXT = 0x1;
const OPCODE_BINARY = 0x2;
const OPCODE_CLOSE = 0x8;
const OPCODE_PING = 0x9;

export interface DeliverySink {
  /** One benchmark message arrived; `receivedUs` is this process's performance.now() in µs. */
  delivered(step: number, sentUs: number, receivedUs: number, frameBytes: number): void;
  closed(receiver: RawReceiver): void;
}

export interface ReceiverOptions {
  host: string;
  port: number;
  /** Path and query of the websocket URL, e.g. `/connect?json=…`. */
  path: string;
  userId: string;
  sink: DeliverySink;
  timeoutMs: number;
}

/**
 * A minimal websocket client (RFC 6455 client side, no extensions). It replaces the `ws` client because the load
 * generator shares two cores with the server under test: parsing only frame headers and one marker keeps the
 * generator's cost per delivery at about half of `ws`, so more of the box measures the server.
 */
export class RawReceiver {
  readonly userId: string;
  connectionId: string | null = null;
  lastHealthCheckAt = 0;
  lastPingAt = 0;
  isClosed = false;
  /** The server's close frame (code and reason), if it sent one. */
  closeReason: string | null = null;
  private closedByUs = false;
  private readonly socket: Socket;
  private readonly sink: DeliverySink;
  private pending: Buffer | null = null;
  private upgraded = false;
  private fragments: Buffer[] = [];
  private fragmentOpcode = 0;
  private settle: ((error: Error | null) => void) | null;

  private constructor(options: ReceiverOptions, settle: (error: Error | null) => void) {
    this.userId = options.userId;
    this.sink = options.sink;
    this.settle = settle;
    this.socket = connect({ host: options.host, port: options.port, noDelay: true });
    this.socket.on('connect', () => this.sendHandshake(options));
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.onClose());
  }

  /** Opens the socket and resolves once the server's first health.check (with connection_id) arrived. */
  static open(options: ReceiverOptions): Promise<RawReceiver> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        receiver.fail(new Error(`no health.check within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      const receiver: RawReceiver = new RawReceiver(options, (error) => {
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(receiver);
      });
    });
  }

  /** Sends the client's heartbeat exactly as stream-chat does: a JSON array with one health.check. */
  ping(): void {
    this.lastPingAt = performance.now();
    this.sendText(
      JSON.stringify([{ type: 'health.check', client_id: `${this.userId}--${randomUUID()}` }]),
    );
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closedByUs = true;
    this.socket.destroy();
  }

  private sendHandshake(options: ReceiverOptions): void {
    const key = randomBytes(16).toString('base64');
    this.socket.write(
      `GET ${options.path} HTTP/1.1\r\nHost: ${options.host}:${options.port}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  }

  /** Client frames must be masked; an all-zero masking key is valid and leaves the payload as is. */
  private sendText(text: string): void {
    if (this.isClosed) return;
    this.sendFrame(OPCODE_TEXT, Buffer.from(text));
  }

  private sendFrame(opcode: number, payload: Buffer): void {
    const length = payload.length;
    const header = length < 126 ? Buffer.alloc(6) : Buffer.alloc(8);
    header[0] = 0x80 | opcode;
    if (length < 126) {
      header[1] = 0x80 | length;
    } else {
      header[1] = 0x80 | 126;
      header.writeUInt16BE(length, 2);
    }
    this.socket.write(Buffer.concat([header, payload]));
  }

  private onData(chunk: Buffer): void {
    let buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    if (!this.upgraded) {
      const end = buffer.indexOf(HEADER_END);
      if (end < 0) {
        this.pending = buffer;
        return;
      }
      const statusLine = buffer.subarray(0, buffer.indexOf('\r\n')).toString();
      if (!statusLine.includes(' 101 ')) {
        this.fail(new Error(`websocket upgrade refused: ${statusLine}`));
        return;
      }
      this.upgraded = true;
      buffer = buffer.subarray(end + HEADER_END.length);
    }
    const receivedUs = performance.now() * 1000;
    let offset = 0;
    while (buffer.length - offset >= 2) {
      const first = buffer[offset] ?? 0;
      const second = buffer[offset + 1] ?? 0;
      let length = second & 0x7f;
      let headerLength = 2;
      if (length === 126) {
        if (buffer.length - offset < 4) break;
        length = buffer.readUInt16BE(offset + 2);
        headerLength = 4;
      } else if (length === 127) {
        if (buffer.length - offset < 10) break;
        length = Number(buffer.readBigUInt64BE(offset + 2));
        headerLength = 10;
      }
      if (second & 0x80) headerLength += 4;
      if (buffer.length - offset < headerLength + length) break;
      const payload = buffer.subarray(offset + headerLength, offset + headerLength + length);
      offset += headerLength + length;
      this.onFrame((first & 0x80) !== 0, first & 0x0f, payload, receivedUs);
      if (this.isClosed) return;
    }
    if (offset < buffer.length) this.pending = buffer.subarray(offset);
  }

  private onFrame(fin: boolean, opcode: number, payload: Buffer, receivedUs: number): void {
    if (opcode === OPCODE_TEXT || opcode === OPCODE_BINARY || opcode === OPCODE_CONTINUATION) {
      if (!fin || opcode === OPCODE_CONTINUATION) {
        if (opcode !== OPCODE_CONTINUATION) this.fragmentOpcode = opcode;
        this.fragments.push(Buffer.from(payload));
        if (!fin) return;
        payload = Buffer.concat(this.fragments);
        this.fragments = [];
        if (this.fragmentOpcode === OPCODE_CONTINUATION) return;
      }
      this.onMessage(payload, receivedUs);
    } else if (opcode === OPCODE_PING) {
      this.sendFrame(0xa, Buffer.from(payload));
    } else if (opcode === OPCODE_CLOSE) {
      this.closeReason = `${payload.length >= 2 ? payload.readUInt16BE(0) : 'no code'} ${payload.subarray(2).toString()}`;
      this.fail(new Error(`server closed the websocket: ${payload.subarray(2).toString()}`));
      this.socket.destroy();
    }
  }

  private onMessage(payload: Buffer, receivedUs: number): void {
    const marker = payload.indexOf(MARKER);
    if (marker >= 0) {
      let position = marker + MARKER.length;
      let step = 0;
      let sentUs = 0;
      for (let byte = payload[position++] ?? 64; byte !== 64; byte = payload[position++] ?? 64) {
        step = step * 10 + (byte - 48);
      }
      for (let byte = payload[position++] ?? 64; byte !== 64; byte = payload[position++] ?? 64) {
        sentUs = sentUs * 10 + (byte - 48);
      }
      this.sink.delivered(step, sentUs, receivedUs, payload.length);
      return;
    }
    if (payload.indexOf(HEALTH_CHECK) >= 0) {
      this.lastHealthCheckAt = performance.now();
      if (this.connectionId === null) {
        const event = JSON.parse(payload.toString()) as { connection_id?: unknown };
        if (typeof event.connection_id !== 'string') {
          this.fail(new Error('first health.check has no connection_id'));
          return;
        }
        this.connectionId = event.connection_id;
        this.settleOnce(null);
      }
      return;
    }
    if (this.connectionId === null) {
      this.fail(
        new Error(`first frame is not a health.check: ${payload.subarray(0, 300).toString()}`),
      );
    }
  }

  private settleOnce(error: Error | null): void {
    const settle = this.settle;
    this.settle = null;
    settle?.(error);
  }

  private fail(error: Error): void {
    if (this.settle) {
      this.settleOnce(error);
      this.close();
    }
  }

  private onClose(): void {
    const wasOpen = this.connectionId !== null;
    this.fail(new Error('socket closed before the first health.check'));
    this.isClosed = true;
    if (wasOpen && !this.closedByUs) this.sink.closed(this);
  }
}
