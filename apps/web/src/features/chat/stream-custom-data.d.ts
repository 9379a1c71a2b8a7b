// Custom fields the product puts on chat objects (Stream flattens custom data onto users and channels).
import 'stream-chat';

declare module 'stream-chat' {
  interface CustomUserData {
    /** The cultivator's tu vi, synced by the product server; absent for users it never synced. */
    tu_vi?: number;
  }
  interface CustomChannelData {
    name?: string;
    image?: string;
  }
}
