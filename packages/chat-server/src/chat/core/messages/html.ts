import MarkdownIt from 'markdown-it';

/*
 * Stream returns every message's markdown rendered as `html` ("Hello, world!" → "<p>Hello, world!</p>\n"). HTML the
 * writer typed is escaped, never passed through (`html: false`), and markdown-it's link check drops `javascript:`,
 * `vbscript:`, `file:` and non-image `data:` targets, so the field is safe for a client that renders it.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, breaks: false });

/** The `html` of a message with this text; empty for an empty text. */
export function messageHtml(text: string): string {
  return text.trim() ? markdown.render(text) : '';
}
