import * as React from 'react';
import type { PollComposer, PollComposerState } from 'stream-chat';
import { useStateStore, useTranslationContext } from 'stream-chat-react';
import { Input } from '@/components/ui/input';
import { maxVotesError } from './max-votes-error';
import { PollFieldError } from './poll-field-error';

const selectLimit = (state: PollComposerState) => ({
  enforceUniqueVote: state.data.enforce_unique_vote === true,
  error: state.errors.max_votes_allowed,
});

const ERROR_ID = 'poll-max-votes-error';

/**
 * "Multiple votes" and the per-person vote limit. The limit stays a plain text field holding what was typed (the
 * composer keeps a clamped copy), so every rule of docs/product-rules.md §6 shows: a limit while one vote each is on,
 * non-digits, a number outside 2–10. Turning "one vote each" on clears the limit.
 */
export function PollVoteLimitField({ pollComposer }: { pollComposer: PollComposer }) {
  const { t } = useTranslationContext();
  const { enforceUniqueVote, error } = useStateStore(pollComposer.state, selectLimit);
  const [typed, setTyped] = React.useState(pollComposer.max_votes_allowed);

  function changeLimit(raw: string) {
    setTyped(raw);
    void pollComposer.updateFields(
      { max_votes_allowed: raw },
      { max_votes_allowed: maxVotesError(raw, enforceUniqueVote) },
    );
  }

  return (
    <div className="flex flex-col gap-3">
      <label className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-current"
          checked={!enforceUniqueVote}
          onChange={(event) => {
            setTyped('');
            void pollComposer.updateFields({ enforce_unique_vote: !event.target.checked });
          }}
        />
        <span className="flex flex-col gap-0.5">
          <span className="font-medium">{t('Multiple votes')}</span>
          <span className="text-muted-foreground">{t('Select more than one option')}</span>
        </span>
      </label>
      <div>
        <label htmlFor="poll-max-votes" className="mb-1 block text-sm font-medium">
          {t('Maximum number of votes (from 2 to 10)')}
        </label>
        <Input
          id="poll-max-votes"
          inputMode="numeric"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ERROR_ID : undefined}
          value={typed}
          onChange={(event) => changeLimit(event.target.value)}
        />
        <PollFieldError id={ERROR_ID} error={error} />
      </div>
    </div>
  );
}
