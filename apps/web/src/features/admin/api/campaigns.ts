import type {
  CampaignAudience,
  CampaignAudienceCount,
  CampaignPreview,
  CampaignProgress,
} from '@daohuu/domain';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const BASE = '/api/admin/campaigns';

/** How often a running campaign's progress is read. */
export const PROGRESS_POLL_MS = 1000;

/** The live count of who an audience reaches; null while the audience is not complete yet. */
export function useAudienceCount(audience: CampaignAudience | null) {
  return useQuery({
    queryKey: ['admin', 'campaigns', 'audience', audience],
    queryFn: () => api.post<CampaignAudienceCount>(`${BASE}/audience`, { audience }),
    enabled: audience !== null,
    placeholderData: keepPreviousData,
  });
}

export function usePreviewCampaign() {
  return useMutation({
    mutationFn: (input: { audience: CampaignAudience; text: string; userId?: string }) =>
      api.post<CampaignPreview>(`${BASE}/preview`, { ...input }),
  });
}

export function useStartCampaign() {
  return useMutation({
    mutationFn: (input: { audience: CampaignAudience; text: string }) =>
      api.post<CampaignProgress>(BASE, { ...input }),
  });
}

export function useStopCampaign() {
  return useMutation({
    mutationFn: (id: string) =>
      api.post<CampaignProgress>(`${BASE}/${encodeURIComponent(id)}/stop`, {}),
  });
}

/** A campaign's progress, read every second until it is over. */
export function useCampaignProgress(id: string | null) {
  return useQuery({
    queryKey: ['admin', 'campaigns', 'progress', id],
    queryFn: ({ signal }) =>
      api.get<CampaignProgress>(`${BASE}/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: id !== null,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'completed' || status === 'stopped' ? false : PROGRESS_POLL_MS;
    },
  });
}
