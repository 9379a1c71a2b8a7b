// Custom fields the product puts on chat objects (Stream flattens custom data onto users and channels); the shapes
// live in packages/domain so the product server declares exactly the same.
import 'stream-chat';
import type { ChatChannelCustomData, ChatUserCustomData } from '@daohuu/domain';

declare module 'stream-chat' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the shared fields
  interface CustomUserData extends ChatUserCustomData {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the shared fields
  interface CustomChannelData extends ChatChannelCustomData {}
}
