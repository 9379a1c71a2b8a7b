import { createMemoryPubSub } from './memory.ts';
import { describePubSubContract } from './pubsub.contract.ts';

describePubSubContract('memory', async () => createMemoryPubSub());
