import type { PollComposer, PollComposerState } from 'stream-chat';
import { useStateStore, useTranslationContext } from 'stream-chat-react';
import { Input } from '@/components/ui/input';
import { PollFieldError } from './poll-field-error';

const selectOptions = (state: PollComposerState) => ({
  options: state.data.options,
  errors: state.errors.options,
});

/**
 * The answer options. stream-chat's poll composer appends an empty option while there are fewer than 100 and
 * validates each one (duplicates, blanks other than the last); this only shows them.
 */
export function PollOptionsField({ pollComposer }: { pollComposer: PollComposer }) {
  const { t } = useTranslationContext();
  const { options, errors } = useStateStore(pollComposer.state, selectOptions);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{t('Options')}</legend>
      {options.map((option, index) => {
        const error = errors?.[option.id];
        const errorId = `poll-option-error-${index + 1}`;
        return (
          <div key={option.id}>
            <Input
              aria-label={t('aria/Option {{ position }}', { position: index + 1 })}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              placeholder={t('Add an option')}
              value={option.text}
              onChange={(event) =>
                void pollComposer.updateFields({ options: { index, text: event.target.value } })
              }
              onBlur={() => void pollComposer.handleFieldBlur('options')}
            />
            <PollFieldError id={errorId} error={error} />
          </div>
        );
      })}
    </fieldset>
  );
}
