import { formatFileSize } from '@daohuu/domain';
import { FileSizeIndicator, type FileSizeIndicatorProps } from 'stream-chat-react';
import { useChatLanguage } from '../language/chat-language';

/**
 * stream-chat-react's file size ("1.2 MB", English whatever the language) in vi-VN ("1,2 MB") on attachments and
 * upload previews; English keeps the SDK's. Same markup as the SDK's, so its styles and test id still apply.
 */
export function ViFileSizeIndicator(props: FileSizeIndicatorProps) {
  // The app's chat language (the SDK's userLanguage follows the browser, not the chosen translation).
  const [language] = useChatLanguage();
  if (language !== 'vi') return <FileSizeIndicator {...props} />;
  const { fileSize } = props;
  const bytes = typeof fileSize === 'string' ? Number.parseFloat(fileSize) : fileSize;
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return null;
  return (
    <span
      className="str-chat__message-attachment-file--item-size"
      data-testid="file-size-indicator"
    >
      {formatFileSize(bytes)}
    </span>
  );
}
