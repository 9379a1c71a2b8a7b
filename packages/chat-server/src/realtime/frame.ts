/**
 * One encoded event. The JSON text and the websocket frame bytes are each built at most once, however many sockets
 * receive the event: server-to-client frames are unmasked, so every socket gets the very same bytes.
 */
export class Frame {
  private bytes: Buffer | undefined;

  constructor(readonly text: string) {}

  static of(event: unknown): Frame {
    return new Frame(JSON.stringify(event));
  }

  /** A complete, unmasked, final text frame (opcode 1). */
  wire(): Buffer {
    if (this.bytes) return this.bytes;
    const payload = Buffer.from(this.text, 'utf8');
    const length = payload.length;
    let header: Buffer;
    if (length < 126) {
      header = Buffer.from([0x81, length]);
    } else if (length < 65536) {
      header = Buffer.alloc(4);
      header[0] = 0x81;
      header[1] = 126;
      header.writeUInt16BE(length, 2);
    } else {
      header = Buffer.alloc(10);
      header[0] = 0x81;
      header[1] = 127;
      header.writeBigUInt64BE(BigInt(length), 2);
    }
    this.bytes = Buffer.concat([header, payload]);
    return this.bytes;
  }
}
