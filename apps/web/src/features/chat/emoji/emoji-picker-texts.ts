/**
 * emoji-mart's interface texts in Vietnamese. Its own vi.json capitalises mid-sentence ("Đồ Ăn") and calls the
 * custom category "Chỉnh sửa"; these follow the chat's glossary ("biểu cảm" is a reaction, an emoji stays "emoji").
 */
export const VI_EMOJI_PICKER_TEXTS = {
  search: 'Tìm emoji',
  search_no_results_1: 'Không thấy',
  search_no_results_2: 'Không có emoji nào khớp',
  pick: 'Chọn một emoji…',
  add_custom: 'Thêm emoji riêng',
  categories: {
    activity: 'Hoạt động',
    custom: 'Emoji riêng',
    flags: 'Cờ',
    foods: 'Đồ ăn và thức uống',
    frequent: 'Dùng gần đây',
    nature: 'Động vật và thiên nhiên',
    objects: 'Đồ vật',
    people: 'Mặt cười và con người',
    places: 'Du lịch và địa điểm',
    search: 'Kết quả tìm kiếm',
    symbols: 'Biểu tượng',
  },
  skins: {
    choose: 'Chọn màu da mặc định',
    1: 'Mặc định',
    2: 'Sáng',
    3: 'Sáng vừa',
    4: 'Trung bình',
    5: 'Tối vừa',
    6: 'Tối',
  },
} as const;
