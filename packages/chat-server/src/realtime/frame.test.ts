import { describe, expect, it } from 'vitest';
import * as wsModule from 'ws';
import { Frame } from './frame.ts';

interface ReceiverInstance {
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  write(chunk: Buffer): void;
}
type ReceiverClass = new (options: { isServer: boolean }) => ReceiverInstance;

function decode(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    // ws's own frame parser, client side (frames from a server are unmasked); @types/ws does not declare it.
    const { Receiver } = wsModule as unknown as { Receiver: ReceiverClass };
    const receiver = new Receiver({ isServer: false });
    receiver.on('message', (data: Buffer) => resolve(data.toString('utf8')));
    receiver.on('error', reject);
    receiver.write(bytes);
  });
}

describe('Frame', () => {
  it.each([10, 125, 126, 65_535, 65_536, 200_000])(
    'builds a text frame that ws parses back (%i bytes)',
    async (size) => {
      const text = JSON.stringify({
        type: 'message.new',
        text: 'đ'.repeat(Math.max(0, Math.floor((size - 40) / 2))),
      });
      expect(await decode(new Frame(text).wire())).toBe(text);
    },
  );

  it('encodes once and shares the bytes', () => {
    const frame = Frame.of({ type: 'health.check' });
    expect(frame.wire()).toBe(frame.wire());
  });
});
