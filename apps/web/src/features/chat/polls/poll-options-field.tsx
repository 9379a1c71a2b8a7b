import { XIcon } from 'lucide-react';
import type { PollComposer, PollComposerState } from 'stream-chat';
import { useStateStore, useTranslationContext } from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { withoutOption } from './keep-cleared-options';
import { PollFieldError } from './poll-field-error';

const selectOptions = (state: PollComposerState) => ({
  options: state.data.options,
  errors: state.errors.options,
});

/**
 * The answer options. The poll composer (configured by keep-cleared-options.ts) appends an empty option while there
 * are fewer than 100, keeps an emptied one in place and flags it; a row other than the trailing empty one can be
 * removed on purpose with its ×.
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
        const removable = index < options.length - 1;
        return (
          <div key={option.id}>
            <div className="flex items-center gap-1">
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
              {removable ? (
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="shrink-0"
                  aria-label={t('aria/Remove option: {{ option }}', {
                    option: option.text.trim() || index + 1,
                  })}
                  onClick={() =>
                    void pollComposer.updateFields({ options: withoutOption(options, index) })
                  }
                >
                  <XIcon aria-hidden="true" />
                </Button>
              ) : (
                <span className="size-9 shrink-0" aria-hidden="true" />
              )}
            </div>
            <PollFieldError id={errorId} error={error} />
          </div>
        );
      })}
    </fieldset>
  );
}
