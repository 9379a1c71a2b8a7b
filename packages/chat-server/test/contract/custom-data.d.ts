// Custom fields the contract tests round-trip through the server. Stream flattens custom data at the top level of
// users, channels, messages and threads; declaring them keeps the tests typed without casts.
import 'stream-chat';

declare module 'stream-chat' {
  interface CustomUserData {
    tu_vi?: number;
    dao_hieu?: string;
  }
  interface CustomChannelData {
    name?: string;
    image?: string;
    mon_phai?: string;
  }
  interface CustomMessageData {
    canh_gioi?: string;
    bi_kip?: Record<string, unknown>;
  }
  interface CustomMemberData {
    code_name?: string;
    rank?: number;
    hobby?: string;
  }
  interface CustomThreadData {
    chu_de?: string;
  }
}
