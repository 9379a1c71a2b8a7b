// Custom fields the product puts on chat objects (Stream keeps custom data at the top level of each object); the
// shapes live in packages/domain so the web app declares exactly the same.
import 'stream-chat';
import type { ChatChannelCustomData, ChatUserCustomData } from '@daohuu/domain';

declare module 'stream-chat' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the shared fields
  interface CustomUserData extends ChatUserCustomData {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the shared fields
  interface CustomChannelData extends ChatChannelCustomData {}
}
