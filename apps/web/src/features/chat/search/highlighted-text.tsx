import * as React from 'react';
import { highlightSegments } from './highlight';

/**
 * `text` with the words matching `query` marked. Every run is a React text node, so whatever a cultivator wrote is
 * shown as written and never parsed as HTML.
 */
export function HighlightedText({ text, query }: { text: string; query: string }) {
  const segments = React.useMemo(() => highlightSegments(text, query), [text, query]);
  return (
    <>
      {segments.map((segment, index) =>
        segment.match ? (
          <mark key={index} className="dh-search-mark rounded-[2px] bg-gold/35 text-inherit">
            {segment.text}
          </mark>
        ) : (
          <React.Fragment key={index}>{segment.text}</React.Fragment>
        ),
      )}
    </>
  );
}
