import { describe, expect, it } from 'vitest';
import { renderCampaignTemplate } from './campaign-template.ts';

const sender = { id: 'tong-mon', name: 'Tông Môn', custom: {} };

describe('renderCampaignTemplate', () => {
  it('fills in the receiver’s name and realm, with or without spaces inside the braces', () => {
    const receiver = { id: 'lam', name: 'Lâm Phong', custom: { tu_vi: 15_000 } };
    expect(
      renderCampaignTemplate('{{receiver.name}} ({{ receiver.realm }}) — {{ sender.name }}', {
        receiver,
        sender,
      }),
    ).toBe('Lâm Phong (Trúc Cơ Trung Kỳ) — Tông Môn');
  });

  it('falls back to the id without a name and renders an unknown or missing realm empty', () => {
    const receiver = { id: 'vo-danh', name: null, custom: { tu_vi: -5 } };
    expect(
      renderCampaignTemplate('{{ receiver.name }}|{{ receiver.realm }}|{{ receiver.khong_co }}', {
        receiver,
        sender,
      }),
    ).toBe('vo-danh||');
  });

  it('reads other custom fields and leaves text that is not a placeholder alone', () => {
    const receiver = { id: 'a', name: 'A', custom: { mon_phai: 'Thanh Vân', __proto__: 1 } };
    expect(
      renderCampaignTemplate('{{ receiver.mon_phai }} {{ other.name }} {{receiver.__proto__}}', {
        receiver,
        sender,
      }),
    ).toBe('Thanh Vân {{ other.name }} ');
  });
});
