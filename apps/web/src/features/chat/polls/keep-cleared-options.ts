import {
  createPollComposerStateMiddleware,
  defaultPollFieldBlurEventValidators,
  type PollComposer,
  type PollComposerState,
} from 'stream-chat';

/** stream-chat's own cap on the options of one poll. */
export const MAX_POLL_OPTIONS = 100;

type PollOption = PollComposerState['data']['options'][number];
type OptionsUpdate = PollOption[] | { index: number; text: string };

function newOption(): PollOption {
  return { id: crypto.randomUUID(), text: '' };
}

/**
 * The options after typing `text` into option `index`, or after a whole new list (a row removed). stream-chat drops
 * an option the moment it is emptied unless it is the last; here the row stays, so the writer sees it flagged
 * "Lựa chọn trống" (docs/product-rules.md §6, polls) rather than watching it vanish. An empty option is
 * appended whenever the last one has text, while there are fewer than 100.
 */
export function keepClearedOptions(
  options: readonly PollOption[],
  update: OptionsUpdate,
  makeOption: () => PollOption = newOption,
): PollOption[] {
  const next = Array.isArray(update)
    ? update.map((option) => ({ ...option }))
    : options.map((option, position) =>
        position === update.index ? { ...option, text: update.text } : option,
      );
  const last = next.at(-1);
  if (next.length < MAX_POLL_OPTIONS && (!last || last.text.trim() !== '')) next.push(makeOption());
  return next;
}

const configured = new WeakSet<PollComposer>();

/**
 * Replaces the poll composer's state middleware with one that keeps cleared options and flags a blank option other
 * than the last as soon as it is cleared (stream-chat only checks that on blur). Safe to call more than once.
 */
export function configurePollOptions(pollComposer: PollComposer): void {
  if (configured.has(pollComposer)) return;
  configured.add(pollComposer);
  const blankCheck = defaultPollFieldBlurEventValidators.options;
  const middleware = createPollComposerStateMiddleware({
    processors: {
      handleFieldChange: {
        options: ({ data, value }) => ({
          options: keepClearedOptions(data.options, value as OptionsUpdate),
        }),
      },
    },
    validators: blankCheck ? { handleFieldChange: { options: blankCheck } } : {},
  });
  pollComposer.stateMiddlewareExecutor.replace([middleware]);
}

/** The options without the one at `index`, for the row's remove button (an empty last row stays). */
export function withoutOption(options: readonly PollOption[], index: number): PollOption[] {
  return options.filter((_, position) => position !== index);
}
