import * as React from 'react';
import { flushSync } from 'react-dom';
import { VotingVisibility, type PollComposer, type PollComposerState } from 'stream-chat';
import {
  useMessageComposerContext,
  useMessageComposerController,
  useStateStore,
  useTranslationContext,
  type PollCreationDialogProps,
} from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { configurePollOptions } from './keep-cleared-options';
import { PollFieldError } from './poll-field-error';
import { PollOptionsField } from './poll-options-field';
import { PollVoteLimitField } from './poll-vote-limit-field';

const selectDialog = (state: PollComposerState) => ({
  name: state.data.name,
  nameError: state.errors.name,
  anonymous: state.data.voting_visibility === VotingVisibility.anonymous,
  allowSuggestions: state.data.allow_user_suggested_options === true,
  allowAnswers: state.data.allow_answers === true,
});

function Toggle({
  checked,
  onChange,
  title,
  description,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  title: string;
  description: string;
}) {
  return (
    <label className="flex items-start gap-3 text-sm">
      <input
        type="checkbox"
        className="mt-0.5 size-4 accent-current"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="flex flex-col gap-0.5">
        <span className="font-medium">{title}</span>
        <span className="text-muted-foreground">{description}</span>
      </span>
    </label>
  );
}

/** Everything between the dialog's header and its buttons; it scrolls when the screen is short. */
function PollFields({ pollComposer }: { pollComposer: PollComposer }) {
  const { t } = useTranslationContext();
  const { name, nameError, anonymous, allowSuggestions, allowAnswers } = useStateStore(
    pollComposer.state,
    selectDialog,
  );
  return (
    <>
      <div>
        <label htmlFor="poll-name" className="mb-1 block text-sm font-medium">
          {t('Question')}
        </label>
        <Input
          id="poll-name"
          autoFocus
          placeholder={t('Ask a question')}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? 'poll-name-error' : undefined}
          value={name}
          onChange={(event) => void pollComposer.updateFields({ name: event.target.value })}
          onBlur={() => void pollComposer.handleFieldBlur('name')}
        />
        <PollFieldError id="poll-name-error" error={nameError} />
      </div>
      <PollOptionsField pollComposer={pollComposer} />
      <PollVoteLimitField pollComposer={pollComposer} />
      <Toggle
        checked={anonymous}
        onChange={(checked) =>
          void pollComposer.updateFields({
            voting_visibility: checked ? VotingVisibility.anonymous : VotingVisibility.public,
          })
        }
        title={t('Anonymous poll')}
        description={t('Hide who voted')}
      />
      <Toggle
        checked={allowSuggestions}
        onChange={(checked) =>
          void pollComposer.updateFields({ allow_user_suggested_options: checked })
        }
        title={t('Suggest an option')}
        description={t('Let others add options')}
      />
      <Toggle
        checked={allowAnswers}
        onChange={(checked) => void pollComposer.updateFields({ allow_answers: checked })}
        title={t('Add a comment')}
        description={t('Allow others to add comments')}
      />
    </>
  );
}

/**
 * The poll creation dialog, in place of stream-chat-react's: the SDK's own one hides the vote-limit messages (its
 * number field drops non-digits and shows no text for the limit's errors). All rules live in stream-chat's poll
 * composer; this dialog shows each error under its field and enables sending only when the composer allows it.
 * A solid panel in both themes; the header and the buttons stay put while the fields between them scroll, so
 * "Gửi bình chọn" is reachable on a 375×600 screen.
 */
export function PollCreationDialog({ close }: PollCreationDialogProps) {
  const { t } = useTranslationContext();
  const messageComposer = useMessageComposerController();
  const { handleSubmit, textareaRef } = useMessageComposerContext();
  const { pollComposer } = messageComposer;
  // Before the first keystroke: an emptied option stays in place, flagged "Lựa chọn trống".
  configurePollOptions(pollComposer);
  const canCreate = useStateStore(pollComposer.state, () => ({
    value: pollComposer.canCreatePoll,
  })).value;
  const titleId = React.useId();

  async function send(event: React.FormEvent) {
    event.preventDefault();
    if (!pollComposer.canCreatePoll) return;
    flushSync(() => close());
    textareaRef.current?.focus();
    // createPoll reports its own failure ("Failed to create the poll") and leaves no poll id behind.
    await messageComposer.createPoll();
    if (!messageComposer.pollId) return;
    handleSubmit();
  }

  return (
    <form
      className="bg-popover text-popover-foreground flex max-h-[min(85dvh,calc(100dvh-2rem))] w-[min(32rem,calc(100vw-1.5rem))] flex-col overflow-hidden rounded-xl border shadow-lg"
      aria-labelledby={titleId}
      data-testid="poll-creation-dialog"
      autoComplete="off"
      onSubmit={(event) => void send(event)}
    >
      <div className="shrink-0 border-b px-5 pt-5 pb-3">
        <h2 id={titleId} className="text-lg font-semibold">
          {t('Create poll')}
        </h2>
        <p className="text-muted-foreground text-sm">
          {t('Create a question, add options, and configure poll settings')}
        </p>
      </div>
      <div
        className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto overscroll-contain px-5 py-4"
        data-testid="poll-creation-body"
      >
        <PollFields pollComposer={pollComposer} />
      </div>
      <div
        className="flex shrink-0 justify-end gap-2 border-t px-5 py-3"
        data-testid="poll-creation-footer"
      >
        <Button type="button" variant="outline" onClick={close}>
          {t('Cancel')}
        </Button>
        <Button type="submit" disabled={!canCreate}>
          {t('Send poll')}
        </Button>
      </div>
    </form>
  );
}
