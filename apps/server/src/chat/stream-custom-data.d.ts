// Custom fields the product puts on chat objects (Stream keeps custom data at the top level of each object).
import 'stream-chat';

declare module 'stream-chat' {
  interface CustomUserData {
    /** The user's cultivation value, so every message header can show the author's realm. */
    tu_vi?: number;
  }
  interface CustomChannelData {
    name?: string;
    description?: string;
  }
}
