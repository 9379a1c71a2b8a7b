import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  channelMessage,
  closeChatUsers,
  newChatUser,
  openDirectMessage,
  toasts,
  type ChatUser,
} from './chat-support';

// A creates a poll in a direct message with B through the composer's dialog; both vote and see the counts live.
test.describe.configure({ mode: 'serial' });

let a: ChatUser;
let b: ChatUser;
const tag = Date.now().toString(36);
const question = `Linh căn nào mạnh nhất ${tag}?`;

function pollDialog(page: Page): Locator {
  return page.getByTestId('poll-creation-dialog');
}

function option(dialog: Locator, position: number): Locator {
  return dialog.getByRole('textbox', { name: `Lựa chọn ${position}`, exact: true });
}

function pollOption(page: Page, text: string): Locator {
  return channelMessage(page, question).locator('.str-chat__poll-option').filter({ hasText: text });
}

test.beforeAll(async ({ browser, baseURL }) => {
  a = await newChatUser(browser, baseURL, 'Chủ Bình Chọn');
  b = await newChatUser(browser, baseURL, 'Người Bầu');
  await openDirectMessage(a, b, { bOpens: true });
});

test.afterAll(async () => closeChatUsers(a, b));

test('the poll dialog shows every validation message next to its field', async () => {
  const page = a.page;
  await page.getByRole('button', { name: 'Mở trình chọn tệp đính kèm' }).click();
  await page.locator('.str-chat__attachment-selector-actions-menu__create-poll-button').click();
  const dialog = pollDialog(page);
  await expect(dialog.getByRole('heading', { name: 'Tạo bình chọn' })).toBeVisible();
  const sendPoll = dialog.getByRole('button', { name: 'Gửi bình chọn' });
  await expect(sendPoll).toBeDisabled();

  // The question is required once the field has been left empty.
  const name = dialog.getByLabel('Câu hỏi');
  await name.focus();
  await name.blur();
  await expect(dialog.getByTestId('poll-name-error')).toHaveText('Vui lòng nhập câu hỏi');
  await name.fill(question);
  await expect(dialog.getByTestId('poll-name-error')).toBeHidden();

  // Typing into the last option appends a new empty one.
  await option(dialog, 1).fill('Kim');
  await expect(option(dialog, 2)).toHaveValue('');
  await option(dialog, 2).fill('Kim');
  await expect(dialog.getByTestId('poll-option-error-2')).toHaveText('Lựa chọn đã tồn tại');
  await expect(sendPoll).toBeDisabled();
  await option(dialog, 2).fill('Mộc');
  await expect(dialog.getByTestId('poll-option-error-2')).toBeHidden();
  await option(dialog, 3).fill('Thủy');
  await option(dialog, 4).fill('Hỏa');
  // A blank option other than the last one is an error, whether emptied or left with spaces.
  await option(dialog, 2).fill('   ');
  await option(dialog, 2).blur();
  await expect(dialog.getByTestId('poll-option-error-2')).toHaveText('Lựa chọn trống');
  await option(dialog, 2).fill('Mộc');
  await option(dialog, 2).blur();
  await expect(dialog.getByTestId('poll-option-error-2')).toBeHidden();

  // The vote limit: nothing while each cultivator has one vote (the default), then digits only, 2 to 10.
  const limit = dialog.getByLabel('Số phiếu tối đa (từ 2 đến 10)');
  const limitError = dialog.getByTestId('poll-max-votes-error');
  const multipleVotes = dialog.getByRole('checkbox', { name: /Cho phép bỏ nhiều phiếu/ });
  await expect(multipleVotes).not.toBeChecked();
  await limit.fill('3');
  await expect(limitError).toHaveText('Đã bật chế độ mỗi người một phiếu');
  await expect(sendPoll).toBeDisabled();
  await multipleVotes.check();
  await expect(limit).toHaveValue('');
  await limit.fill('x');
  await expect(limitError).toHaveText('Chỉ được nhập số');
  await expect(sendPoll).toBeDisabled();
  await limit.fill('11');
  await expect(limitError).toHaveText('Nhập một số từ 2 đến 10');
  await expect(sendPoll).toBeDisabled();
  await limit.fill('2');
  await expect(limitError).toBeHidden();

  await dialog.getByRole('checkbox', { name: /Đề xuất lựa chọn/ }).check();
  await dialog.getByRole('checkbox', { name: /Thêm bình luận/ }).check();
  await expect(sendPoll).toBeEnabled();
  await sendPoll.click();
  await expect(dialog).toBeHidden();

  // The trailing empty option was dropped: four options were sent.
  const poll = channelMessage(page, question);
  await expect(poll).toBeVisible();
  await expect(poll.locator('.str-chat__poll-option')).toHaveCount(4);
});

test("B's votes reach A live, and a vote past the limit is refused", async () => {
  await expect(channelMessage(b.page, question)).toBeVisible();
  await pollOption(b.page, 'Kim').click();
  await expect(pollOption(a.page, 'Kim').locator('.str-chat__poll-option-vote-count')).toHaveText(
    '1',
  );
  await pollOption(b.page, 'Mộc').click();
  await expect(pollOption(a.page, 'Mộc').locator('.str-chat__poll-option-vote-count')).toHaveText(
    '1',
  );

  await pollOption(b.page, 'Thủy').click();
  await expect(
    toasts(b.page).filter({ hasText: 'Đã đạt giới hạn số phiếu. Hãy bỏ một phiếu đã bầu trước.' }),
  ).toBeVisible();
  await expect(pollOption(b.page, 'Thủy').locator('.str-chat__poll-option-vote-count')).toHaveText(
    '0',
  );

  await pollOption(a.page, 'Kim').click();
  await expect(pollOption(b.page, 'Kim').locator('.str-chat__poll-option-vote-count')).toHaveText(
    '2',
  );
});

test('B suggests an option and adds a comment', async () => {
  const poll = channelMessage(b.page, question);
  await poll.getByRole('button', { name: 'Đề xuất lựa chọn' }).click();
  const suggestion = b.page.getByPlaceholder('Nhập lựa chọn mới');
  await suggestion.fill('Thổ');
  await suggestion.press('Enter');
  await expect(pollOption(a.page, 'Thổ')).toBeVisible();

  await poll.getByRole('button', { name: 'Thêm bình luận' }).click();
  const comment = b.page.getByPlaceholder('Bình luận của đạo hữu');
  await comment.fill('Kim sinh Thủy');
  await comment.press('Enter');
  await expect(
    channelMessage(a.page, question).getByRole('button', { name: /Xem 1 bình luận/ }),
  ).toBeVisible();
});

test('A ends the poll and nobody can vote any more', async () => {
  const poll = channelMessage(a.page, question);
  const end = poll.getByRole('button', { name: 'Kết thúc bình chọn' });
  // Shown as written, in sentence case: the SDK's stylesheet capitalises every word of a button.
  expect(await end.innerText()).toBe('Kết thúc bình chọn');
  await end.click();
  await a.page
    .getByRole('dialog', { name: 'Kết thúc bình chọn này?' })
    .getByRole('button', { name: 'Kết thúc bình chọn' })
    .click();
  await expect(channelMessage(b.page, question)).toContainText('Đã kết thúc bỏ phiếu');
  await expect(pollOption(b.page, 'Thủy')).not.toHaveAttribute('role', 'button');
});
