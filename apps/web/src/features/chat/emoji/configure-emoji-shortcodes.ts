import type { MessageComposer, TextComposerMiddlewareExecutorState } from 'stream-chat';
import { loadEmojiKit, loadedEmojiKit, type EmojiKit } from './load-emoji-kit';

const LOADER_ID = 'daohuu/emoji/shortcode-loader';
const MENTIONS_ID = 'stream-io/text-composer/mentions-middleware';

/** A ":" starting a word just before the caret: the moment to fetch the emoji for a shortcode. */
export function startsShortcode(text: string, caret: number): boolean {
  return /(?:^|\s):[^\s:]*$/u.test(text.slice(0, caret));
}

type Executor = MessageComposer['textComposer']['middlewareExecutor'];
type AnyTextMiddleware = Parameters<Executor['insert']>[0]['middleware'][number];

/** Composers that already run the SDK's emoji middleware. */
const withShortcodes = new WeakSet<MessageComposer>();

function installShortcodes(composer: MessageComposer, kit: EmojiKit): void {
  if (withShortcodes.has(composer)) return;
  withShortcodes.add(composer);
  const executor = composer.textComposer.middlewareExecutor;
  // The executor is typed for every kind of suggestion; the SDK casts its own middleware the same way.
  const emoji = kit.createTextComposerEmojiMiddleware(
    kit.searchIndex as Parameters<EmojiKit['createTextComposerEmojiMiddleware']>[0],
  ) as unknown as AnyTextMiddleware;
  executor.remove(LOADER_ID);
  executor.insert({ middleware: [emoji], position: { before: MENTIONS_ID }, unique: true });
}

function rerunIfShortcode(composer: MessageComposer): void {
  const { text, selection } = composer.textComposer;
  if (startsShortcode(text, selection.end))
    void composer.textComposer.handleChange({ text, selection });
}

/**
 * stream-chat-react's `:` shortcode suggestions (its emoji middleware over emoji-mart's search index). Until the
 * emoji are needed a small middleware stands in: the first ":" typed fetches them, installs the SDK's middleware and
 * runs the text through it again, so ":smi" offers 😄 without the data ever being in the chat's first load.
 */
export function configureEmojiShortcodes(composer: MessageComposer): void {
  if (composer.client.anonymous) return;
  const ready = loadedEmojiKit();
  if (ready) {
    installShortcodes(composer, ready);
    return;
  }
  const loader = {
    id: LOADER_ID,
    handlers: {
      onChange: ({
        state,
        forward,
      }: {
        state: TextComposerMiddlewareExecutorState;
        forward: () => unknown;
      }) => {
        if (state.selection && startsShortcode(state.text, state.selection.end)) {
          void loadEmojiKit().then(
            (kit) => {
              if (withShortcodes.has(composer)) return;
              installShortcodes(composer, kit);
              // The keystroke that got here is still going through the middleware chain: re-running now would
              // commit the text as it was before the ":". Run again once that keystroke is committed.
              setTimeout(() => rerunIfShortcode(composer), 0);
            },
            () => undefined,
          );
        }
        return forward();
      },
    },
  } as unknown as AnyTextMiddleware;
  composer.textComposer.middlewareExecutor.insert({
    middleware: [loader],
    position: { before: MENTIONS_ID },
    unique: true,
  });
}
