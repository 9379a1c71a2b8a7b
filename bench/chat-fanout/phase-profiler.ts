import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { sendToParent, type ParentMessage } from './child-protocol.ts';

// 0.5 ms sampling: fine enough to split a 4 s rate step into named functions, cheap enough not to move the figures.
const SAMPLING_INTERVAL_US = 500;

/**
 * Lets the orchestrator profile this server process phase by phase through the inspector (instead of one
 * --cpu-prof file for the whole run, which mixes connects, watches and fan-out into one picture).
 */
export function answerProfileRequests(): void {
  let session: Session | null = null;
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'profile-start') {
      void (async () => {
        if (!session) {
          session = new Session();
          session.connect();
          await session.post('Profiler.enable');
          await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
        }
        await session.post('Profiler.start');
        sendToParent({ type: 'profile-ack' });
      })();
    } else if (message.type === 'profile-stop' && session) {
      const active = session;
      void (async () => {
        const { profile } = await active.post('Profiler.stop');
        writeFileSync(message.path, JSON.stringify(profile));
        sendToParent({ type: 'profile-ack' });
      })();
    }
  });
}
