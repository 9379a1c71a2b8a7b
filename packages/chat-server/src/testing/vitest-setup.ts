// Vitest setup for every project that drives the real stream-chat client in Node (see abandoned-sockets.ts).
import { sinkErrorsOfAbandonedSockets } from './abandoned-sockets.ts';

sinkErrorsOfAbandonedSockets();
