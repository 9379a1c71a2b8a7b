import { StreamChat, type UserResponse } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { CultivatorMentionsSource, configureMentions } from './configure-mentions';

const SECT = { type: 'livestream', id: 'thanh-van-mon' };

function channelWith(client: StreamChat, type: string, id: string, users: UserResponse[]) {
  const channel = client.channel(type, id);
  channel.state.members = Object.fromEntries(
    users.map((user) => [user.id, { user, user_id: user.id }]),
  );
  return channel;
}

const PEOPLE: UserResponse[] = [
  { id: 'lam-phong', name: 'Lâm Phong' },
  { id: 'bach-van', name: 'Bạch Vân' },
  { id: 'dao-tam', name: 'Đạo Tâm' },
  { id: 'tieu-viem', name: 'Tiêu Viêm' },
];

async function namesFor(source: CultivatorMentionsSource, text: string, query: string) {
  source.config.textComposerText = text;
  const { items } = await source.query(query);
  return source.filterQueryResults(items).map((item) => item.name);
}

function clientAs(userId: string): StreamChat {
  const client = new StreamChat('khoa');
  client.userID = userId;
  return client;
}

describe('CultivatorMentionsSource', () => {
  it('finds members whatever accents, "đ" or capitals the cultivator types', async () => {
    const client = clientAs('lam-phong');
    const source = new CultivatorMentionsSource(
      channelWith(client, 'messaging', 'dm', PEOPLE),
      false,
    );
    expect(await namesFor(source, '@bach', 'bach')).toEqual(['Bạch Vân']);
    expect(await namesFor(source, '@BACH V', 'BACH V')).toEqual(['Bạch Vân']);
    expect(await namesFor(source, '@dao', 'dao')).toEqual(['Đạo Tâm']);
    expect(await namesFor(source, '@viêm', 'viêm')).toEqual(['Tiêu Viêm']);
  });

  it('lists everyone else for a bare "@" and never offers the writer', async () => {
    const client = clientAs('lam-phong');
    const source = new CultivatorMentionsSource(
      channelWith(client, 'messaging', 'dm', PEOPLE),
      false,
    );
    expect(await namesFor(source, '@', '')).toEqual(['Bạch Vân', 'Đạo Tâm', 'Tiêu Viêm']);
    expect(await namesFor(source, '@lam', 'lam')).toEqual([]);
  });

  it('offers nobody for a word no name starts with', async () => {
    const client = clientAs('lam-phong');
    const source = new CultivatorMentionsSource(
      channelWith(client, 'messaging', 'dm', PEOPLE),
      false,
    );
    expect(await namesFor(source, '@xyz', 'xyz')).toEqual([]);
  });

  it('asks the server for the whole app in a sect channel once a letter is typed, without the writer', async () => {
    const client = clientAs('lam-phong');
    const asked: unknown[] = [];
    client.queryUsers = (async (filters: unknown) => {
      asked.push(filters);
      return { users: [PEOPLE[0], { id: 'bach-lo', name: 'Bách Lộ' }], duration: '0' };
    }) as StreamChat['queryUsers'];
    const source = new CultivatorMentionsSource(channelWith(client, SECT.type, SECT.id, []), true);
    expect(await namesFor(source, '@bach', 'bach')).toEqual(['Bách Lộ']);
    expect(asked).toEqual([
      { $or: [{ id: { $autocomplete: 'bach' } }, { name: { $autocomplete: 'bach' } }] },
    ]);
  });
});

describe('configureMentions', () => {
  it('puts the folding source behind the composer’s "@" suggestions', async () => {
    const client = clientAs('lam-phong');
    const channel = channelWith(client, 'messaging', 'dm-2', PEOPLE);
    configureMentions(channel.messageComposer, [SECT]);
    const { textComposer } = channel.messageComposer;
    await textComposer.handleChange({ text: 'Chào @bach', selection: { start: 10, end: 10 } });
    const suggestions = textComposer.suggestions;
    expect(suggestions?.trigger).toBe('@');
    expect(suggestions?.query).toBe('bach');
    expect(suggestions?.searchSource).toBeInstanceOf(CultivatorMentionsSource);
  });
});
