import { expect, test } from '@playwright/test';
import {
  channelComposer,
  channelListItem,
  channelMessage,
  newChatUser,
  openChat,
  send,
} from './chat-support';

test('a named group picked by đạo hiệu reaches every member', async ({ browser, baseURL }) => {
  const host = await newChatUser(browser, baseURL, 'Chủ Trì');
  const guestOne = await newChatUser(browser, baseURL, 'Khách Một');
  const guestTwo = await newChatUser(browser, baseURL, 'Khách Hai');
  const groupName = `Luận kiếm ${Date.now().toString(36)}`;
  try {
    await openChat(guestOne.page);
    await openChat(host.page);

    await host.page.getByRole('button', { name: 'Cuộc trò chuyện mới' }).click();
    const dialog = host.page.getByRole('dialog', { name: 'Cuộc trò chuyện mới' });
    // The dialog opens ready to type a name.
    await expect(dialog.getByLabel('Đạo hiệu')).toBeFocused();
    await dialog.getByRole('tab', { name: 'Nhóm' }).click();
    await dialog.getByLabel('Tên nhóm').fill(groupName);
    for (const member of [guestOne, guestTwo]) {
      await dialog.getByLabel('Đạo hiệu').fill(member.daoHieu);
      await dialog.getByRole('checkbox', { name: new RegExp(member.daoHieu) }).click();
    }
    await expect(dialog.getByRole('list', { name: 'Đã chọn' }).getByRole('listitem')).toHaveCount(
      2,
    );
    await dialog.getByRole('button', { name: 'Tạo nhóm' }).click();
    await expect(dialog).toBeHidden();
    await expect(host.page.getByRole('heading', { level: 2, name: groupName })).toBeVisible();
    await expect(host.page.getByTestId('channel-member-count')).toHaveText('3 thành viên');

    await send(channelComposer(host.page), 'Chào mừng chư vị đến luận kiếm.');
    const item = channelListItem(guestOne.page, groupName);
    await expect(item).toContainText('Chào mừng chư vị');
    await item.click();
    await expect(channelMessage(guestOne.page, 'Chào mừng chư vị')).toBeVisible();
  } finally {
    await host.context.close();
    await guestOne.context.close();
    await guestTwo.context.close();
  }
});
