import { DEMO_ADMIN, DEMO_USERS } from './demo-accounts.ts';

export type DemoReactionType = 'like' | 'love' | 'haha';

export interface DemoMessage {
  /** Fixed, so seeding again never duplicates a message. */
  id: string;
  /** Email of the demo account that writes it. */
  author: string;
  text: string;
  pinned?: boolean;
  /** Thread replies (messages with this one as `parent_id`). */
  replies?: DemoMessage[];
  reactions?: { by: string; type: DemoReactionType }[];
}

export interface DemoChannelConversation {
  channel: { type: 'sect'; id: string };
  messages: DemoMessage[];
}

function emailOf(daoHieu: string): string {
  const account = [DEMO_ADMIN, ...DEMO_USERS].find((candidate) => candidate.daoHieu === daoHieu);
  if (!account) throw new Error(`no demo account named ${daoHieu}`);
  return account.email;
}

const chuongMon = emailOf('Chưởng Môn');
const bachVan = emailOf('Bạch Vân');
const langPhong = emailOf('Lăng Phong');
const tuYen = emailOf('Tử Yên');
const macTran = emailOf('Mặc Trần');
const lucThanhY = emailOf('Lục Thanh Y');

/**
 * The demo conversation of the public channels: a few days in the life of the sect, consistent with the demo
 * accounts' realms (Bạch Vân 75 tu vi, Lăng Phong 2.300, Tử Yên 48.000, …) and the realms of docs/product-rules.md §3.
 */
export const DEMO_CHANNEL_CONVERSATIONS: DemoChannelConversation[] = [
  {
    channel: { type: 'sect', id: 'quang-truong' },
    messages: [
      {
        id: 'demo-quang-truong-01',
        author: chuongMon,
        text: 'Chào mừng chư vị đạo hữu đến với Đạo Hữu! Quảng Trường là nơi mọi người giao lưu tự do, cứ tự nhiên như ở nhà nhé.',
        reactions: [
          { by: bachVan, type: 'like' },
          { by: langPhong, type: 'like' },
          { by: tuYen, type: 'like' },
          { by: lucThanhY, type: 'love' },
        ],
      },
      {
        id: 'demo-quang-truong-02',
        author: bachVan,
        text: 'Tại hạ Bạch Vân, hôm nay mới nhập môn, tu vi còn ở Luyện Khí tầng 1 thôi ạ 😅 Mong các tiền bối chỉ giáo.',
      },
      {
        id: 'demo-quang-truong-03',
        author: langPhong,
        text: 'Chào Bạch Vân đạo hữu! Ai mà chẳng bắt đầu từ tầng 1, chăm chỉ mỗi ngày là lên thôi.',
      },
      {
        id: 'demo-quang-truong-04',
        author: tuYen,
        text: 'Hoan nghênh tân đạo hữu ✨ Có gì thắc mắc về cảnh giới cứ hỏi bên kênh Luận Đạo, ở đó nhiều cao nhân lắm.',
      },
      {
        id: 'demo-quang-truong-05',
        author: bachVan,
        text: 'Mọi người đang đọc bộ nào vậy? Mình vừa đọc xong Phàm Nhân Tu Tiên, giờ thấy hụt hẫng quá.',
        replies: [
          {
            id: 'demo-quang-truong-05-tl-1',
            author: tuYen,
            text: 'Thử Tru Tiên đi đạo hữu, ngắn hơn nhiều mà đọc xong thấm lắm.',
          },
          {
            id: 'demo-quang-truong-05-tl-2',
            author: bachVan,
            text: 'Cảm ơn tỷ, cuối tuần này mình đọc thử!',
          },
        ],
      },
      {
        id: 'demo-quang-truong-06',
        author: macTran,
        text: 'Xong Phàm Nhân thì đọc Tiên Nghịch. Văn phong khác hẳn, nhưng đoạn cuối rất đáng.',
      },
      {
        id: 'demo-quang-truong-07',
        author: langPhong,
        text: '+1 Tiên Nghịch. Còn mình thì đang cày lại Ngã Dục Phong Thiên lần thứ ba 😂',
        reactions: [
          { by: tuYen, type: 'haha' },
          { by: bachVan, type: 'haha' },
        ],
      },
      {
        id: 'demo-quang-truong-08',
        author: lucThanhY,
        text: 'Lão phu thấy đọc truyện cũng như tu luyện: chậm mà chắc. Đọc vội thì chẳng đọng lại được gì.',
      },
      {
        id: 'demo-quang-truong-09',
        author: bachVan,
        text: 'Dạ, vãn bối xin ghi nhớ lời tiền bối 🙏',
      },
      {
        id: 'demo-quang-truong-10',
        author: tuYen,
        text: 'Tối nay 21 giờ ai rảnh thì vào bàn về Già Thiên với mình nhé, đang tới đoạn hay.',
      },
      {
        id: 'demo-quang-truong-11',
        author: langPhong,
        text: 'Mình tham gia! Nhớ chừa chỗ cho đệ nha Tử Yên tỷ.',
      },
      {
        id: 'demo-quang-truong-12',
        author: chuongMon,
        text: 'Nhắc nhẹ: muốn mua bán gì thì qua kênh Giao Dịch, đừng rao ở Quảng Trường nhé chư vị.',
      },
      {
        id: 'demo-quang-truong-13',
        author: macTran,
        text: 'Rõ.',
      },
      {
        id: 'demo-quang-truong-14',
        author: bachVan,
        text: 'Mọi người ơi, mình được 75 tu vi rồi, thêm 26 nữa là lên Luyện Khí tầng 2 🎉',
        reactions: [
          { by: tuYen, type: 'love' },
          { by: langPhong, type: 'love' },
          { by: chuongMon, type: 'like' },
        ],
      },
      {
        id: 'demo-quang-truong-15',
        author: lucThanhY,
        text: 'Khá lắm. Đường tu còn dài, giữ vững đạo tâm.',
      },
    ],
  },
  {
    channel: { type: 'sect', id: 'luan-dao' },
    messages: [
      {
        id: 'demo-luan-dao-01',
        author: chuongMon,
        pinned: true,
        text: [
          '📜 Môn quy kênh Luận Đạo',
          '1. Tôn trọng đạo hữu: tranh luận bằng lý lẽ, không công kích cá nhân.',
          '2. Bàn tình tiết truyện thì ghi rõ "có tiết lộ nội dung" ở đầu tin nhắn.',
          '3. Không quảng cáo, không rao bán ở đây, đã có kênh Giao Dịch.',
          '4. Hỏi về cảnh giới, tu vi cứ mạnh dạn, không ai cười chê.',
          'Vi phạm nhiều lần sẽ bị cấm ngôn. Đa tạ chư vị!',
        ].join('\n'),
        reactions: [
          { by: tuYen, type: 'like' },
          { by: macTran, type: 'like' },
          { by: langPhong, type: 'like' },
          { by: lucThanhY, type: 'love' },
        ],
      },
      {
        id: 'demo-luan-dao-02',
        author: langPhong,
        text: 'Các tiền bối cho hỏi: đệ đang Luyện Khí tầng 8, 2.300 tu vi, còn bao lâu nữa mới Trúc Cơ được ạ?',
        replies: [
          {
            id: 'demo-luan-dao-02-tl-1',
            author: macTran,
            text: 'Đừng nóng vội. Nền móng Trúc Cơ không vững thì lên Kim Đan sẽ khổ.',
          },
          {
            id: 'demo-luan-dao-02-tl-2',
            author: lucThanhY,
            text: 'Mặc Trần nói phải. Năm xưa lão phu cũng kẹt ở Trúc Cơ Hậu Kỳ gần trăm năm đấy.',
          },
          {
            id: 'demo-luan-dao-02-tl-3',
            author: langPhong,
            text: 'Dạ, vãn bối hiểu rồi. Đa tạ hai vị tiền bối!',
          },
        ],
      },
      {
        id: 'demo-luan-dao-03',
        author: tuYen,
        text: 'Trúc Cơ Sơ Kỳ bắt đầu từ 4.000 tu vi. Đệ còn 1.700 nữa thôi, qua tầng 9 là tới.',
        reactions: [{ by: langPhong, type: 'like' }],
      },
      {
        id: 'demo-luan-dao-04',
        author: bachVan,
        text: 'Mình thắc mắc: trong truyện, Kim Đan với Nguyên Anh khác nhau thế nào vậy mọi người?',
      },
      {
        id: 'demo-luan-dao-05',
        author: macTran,
        text: 'Kim Đan là linh lực ngưng tụ thành đan. Nguyên Anh là từ đan sinh ra anh nhi, xem như một sinh mệnh thứ hai.',
      },
      {
        id: 'demo-luan-dao-06',
        author: lucThanhY,
        text: 'Vì thế nhục thân bị hủy mà Nguyên Anh thoát được thì vẫn đoạt xá trùng tu được. Phàm Nhân Tu Tiên tả đoạn này rất kỹ.',
        reactions: [{ by: bachVan, type: 'love' }],
      },
      {
        id: 'demo-luan-dao-07',
        author: bachVan,
        text: 'Hay quá! Vậy Hóa Thần như Lục tiền bối thì sao ạ? 😮',
      },
      {
        id: 'demo-luan-dao-08',
        author: lucThanhY,
        text: 'Hóa Thần là bắt đầu cảm ngộ pháp tắc thiên địa. Chuyện đó… đợi tiểu hữu Trúc Cơ rồi lão phu kể.',
      },
      {
        id: 'demo-luan-dao-09',
        author: tuYen,
        text: 'Haha, tiền bối lại úp mở rồi 😆',
        reactions: [
          { by: langPhong, type: 'haha' },
          { by: bachVan, type: 'haha' },
        ],
      },
      {
        id: 'demo-luan-dao-10',
        author: langPhong,
        text: '(có tiết lộ nội dung) Đoạn Diệp Phàm đột phá ngay giữa trận chiến trong Già Thiên, mọi người có thấy hơi khiên cưỡng không?',
      },
      {
        id: 'demo-luan-dao-11',
        author: macTran,
        text: 'Có phần khiên cưỡng. Nhưng tác giả cài phục bút từ mấy chục chương trước, đọc lại sẽ thấy.',
      },
      {
        id: 'demo-luan-dao-12',
        author: tuYen,
        text: 'Mình thì thấy hợp lý, Diệp Phàm tích lũy đủ lâu rồi mà.',
      },
      {
        id: 'demo-luan-dao-13',
        author: chuongMon,
        text: 'Tranh luận văn minh như vậy là đẹp. Tuần sau mình mở chủ đề so sánh hệ thống cảnh giới giữa các bộ truyện nhé.',
      },
      {
        id: 'demo-luan-dao-14',
        author: bachVan,
        text: 'Hóng ạ! 🙌',
        reactions: [{ by: chuongMon, type: 'like' }],
      },
    ],
  },
  {
    channel: { type: 'sect', id: 'giao-dich' },
    messages: [
      {
        id: 'demo-giao-dich-01',
        author: tuYen,
        text: 'Bán 5 viên Trúc Cơ Đan, phẩm chất thượng, 150.000 ₫ một viên. Ai cần thì trả lời ở đây nhé.',
        replies: [
          {
            id: 'demo-giao-dich-01-tl-1',
            author: langPhong,
            text: 'Tỷ để cho đệ 1 viên nha, đệ đã chuyển 150.000 ₫ rồi, tỷ kiểm tra giúp.',
          },
          {
            id: 'demo-giao-dich-01-tl-2',
            author: tuYen,
            text: 'Nhận rồi, đan đã gửi. Chúc đệ Trúc Cơ thuận lợi!',
          },
        ],
      },
      {
        id: 'demo-giao-dich-02',
        author: langPhong,
        text: 'Đan của Tử Yên tỷ thì khỏi bàn, mọi người cứ yên tâm 😁',
        reactions: [{ by: tuYen, type: 'haha' }],
      },
      {
        id: 'demo-giao-dich-03',
        author: macTran,
        text: 'Thu mua Huyền Thiết và Tinh Thần Sa, số lượng lớn. Giá thương lượng.',
      },
      {
        id: 'demo-giao-dich-04',
        author: bachVan,
        text: 'Có ai nhượng pháp bảo phòng thân cho người mới không ạ? Ngân sách mình hơi eo hẹp, tầm 20.000 ₫ thôi 😅',
      },
      {
        id: 'demo-giao-dich-05',
        author: lucThanhY,
        text: 'Lão phu còn dư một tấm Kim Cang Phù, tặng tiểu hữu. Không lấy tiền.',
        reactions: [
          { by: bachVan, type: 'love' },
          { by: tuYen, type: 'love' },
          { by: chuongMon, type: 'love' },
        ],
      },
      {
        id: 'demo-giao-dich-06',
        author: bachVan,
        text: 'Trời ơi, đa tạ tiền bối! 🙏🙏',
      },
      {
        id: 'demo-giao-dich-07',
        author: chuongMon,
        text: 'Lưu ý chung: giao dịch trên 500.000 ₫ nên nhờ người trung gian uy tín. Môn phái không chịu trách nhiệm cho giao dịch riêng.',
        reactions: [
          { by: macTran, type: 'like' },
          { by: lucThanhY, type: 'like' },
        ],
      },
      {
        id: 'demo-giao-dich-08',
        author: macTran,
        text: 'Ai có Tinh Thần Sa thì nhắn riêng, trả giá tốt.',
      },
      {
        id: 'demo-giao-dich-09',
        author: langPhong,
        text: 'Pass lại bộ Tru Tiên bìa cứng, còn mới 95%, 350.000 ₫, ship toàn quốc.',
      },
      {
        id: 'demo-giao-dich-10',
        author: tuYen,
        text: 'Bộ đó in đẹp lắm, ai chưa có thì hốt đi nha.',
      },
      {
        id: 'demo-giao-dich-11',
        author: bachVan,
        text: 'Lăng huynh ơi, cho mình xin ảnh bìa với ạ.',
      },
      {
        id: 'demo-giao-dich-12',
        author: langPhong,
        text: 'Để mình nhắn riêng gửi bạn nha.',
      },
    ],
  },
];

/** A direct conversation (a distinct `messaging` channel of its two members) that follows up the last trade. */
export const DEMO_DIRECT_CONVERSATION: { members: [string, string]; messages: DemoMessage[] } = {
  members: [langPhong, bachVan],
  messages: [
    {
      id: 'demo-rieng-01',
      author: langPhong,
      text: 'Chào Bạch Vân, bộ Tru Tiên mình nói đó bìa còn đẹp lắm, tối nay mình chụp ảnh gửi bạn nha.',
    },
    {
      id: 'demo-rieng-02',
      author: bachVan,
      text: 'Dạ cảm ơn huynh! Mà huynh ở đâu vậy, mình ở Đà Nẵng.',
    },
    {
      id: 'demo-rieng-03',
      author: langPhong,
      text: 'Mình ở Hà Nội, ship vào Đà Nẵng tầm ba ngày thôi.',
    },
    {
      id: 'demo-rieng-04',
      author: bachVan,
      text: 'Ok huynh, để mình gom đủ tiền đã 😄 Mà huynh tu luyện bao lâu mới lên được tầng 8 vậy?',
      reactions: [{ by: langPhong, type: 'haha' }],
    },
    {
      id: 'demo-rieng-05',
      author: langPhong,
      text: 'Tầm hai tháng. Ngày nào cũng vào Luận Đạo nghe các tiền bối giảng là tiến nhanh lắm.',
    },
    {
      id: 'demo-rieng-06',
      author: bachVan,
      text: 'Vậy từ mai mình cũng chăm vào đó mới được. Chúc huynh sớm Trúc Cơ!',
      reactions: [{ by: langPhong, type: 'love' }],
    },
  ],
};
