/** The one route table: components link through it, the router is built from it. */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  realms: { path: '/canh-gioi', getHref: () => '/canh-gioi' },
  profile: { path: '/ho-so', getHref: () => '/ho-so' },
  reminders: { path: '/nhac-nho', getHref: () => '/nhac-nho' },
  // One route for the list and a channel, so moving between them keeps the chat mounted.
  chat: {
    path: '/chat/:type?/:id?',
    getHref: () => '/chat',
    channelHref: (type: string, id: string) =>
      `/chat/${encodeURIComponent(type)}/${encodeURIComponent(id)}`,
  },
  admin: {
    home: { path: '/quan-tri', getHref: () => '/quan-tri' },
    users: { path: '/quan-tri/nguoi-dung', getHref: () => '/quan-tri/nguoi-dung' },
    moderation: { path: '/quan-tri/kiem-duyet', getHref: () => '/quan-tri/kiem-duyet' },
    campaigns: { path: '/quan-tri/chien-dich', getHref: () => '/quan-tri/chien-dich' },
  },
} as const;

/** `?dang-nhap=1` opens the login dialog on any screen. */
export const LOGIN_SEARCH_PARAM = 'dang-nhap';
