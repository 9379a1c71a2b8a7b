// Runs in the page before any app script (addInitScript). Written as a string because the bench is typechecked
// without the DOM library. It records, in the page's own clock (performance.now(), 0 = navigation start), when the
// first chat message (the opening channel's preview or stream-chat-react's list, whichever comes first), the first
// message of stream-chat-react's own list, and the first main heading become visible.
export const PROBE_SCRIPT = `
(() => {
  const marks = {};
  window.__daohuuBench = marks;
  const targets = {
    message: '[data-first-messages] [data-message-id], .str-chat__main-panel .str-chat__message',
    fullChat: '.str-chat__main-panel .str-chat__message',
    heading: 'main h1, h1',
  };
  const visible = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const check = () => {
    for (const [name, selector] of Object.entries(targets)) {
      if (marks[name] !== undefined) continue;
      const element = document.querySelector(selector);
      if (element && visible(element)) marks[name] = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
})();
`;

export interface ProbeMarks {
  message?: number;
  fullChat?: number;
  heading?: number;
}
