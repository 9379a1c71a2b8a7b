import type {
  SearchController,
  SearchControllerState,
  SearchSource,
  SearchSourceState,
} from 'stream-chat';
import { useStateStore } from 'stream-chat-react';

const selectSources = (state: SearchControllerState) => ({ sources: state.sources });

const selectSourceState = (state: SearchSourceState) => ({
  items: state.items,
  isLoading: state.isLoading,
  hasNext: state.hasNext,
  lastQueryError: state.lastQueryError,
});

/** The controller's sources and the one that is active (only one is, the controller keeps it so). */
export function useActiveSource(controller: SearchController): {
  sources: SearchSource[];
  source: SearchSource | undefined;
} {
  const { sources } = useStateStore(controller.state, selectSources);
  return { sources, source: sources.find((candidate) => candidate.isActive) ?? sources[0] };
}

export type SourceView = ReturnType<typeof selectSourceState>;

/** What a source shows: its items, its loading flag, whether more pages exist, and its last error. */
export function useSourceView(source: SearchSource | undefined): SourceView | undefined {
  return useStateStore(source?.state, selectSourceState);
}
