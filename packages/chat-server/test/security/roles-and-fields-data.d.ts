// Custom fields the roles-and-fields attack tests write (see contract/custom-data.d.ts for the shared ones).
import 'stream-chat';

declare module 'stream-chat' {
  interface CustomUserData {
    tieu_su?: string;
    ghi_chu?: string;
  }
  interface CustomChannelData {
    description?: string;
    rules?: string;
  }
  interface CustomMemberData {
    biet_danh?: string;
  }
}
