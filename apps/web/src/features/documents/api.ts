import {
  type Country,
  DOCUMENTS_PAGE_SIZE,
  type DocumentData,
  documentCountry,
  type User,
  type Vehicle,
  type VehicleDocument,
} from '@evdra/domain';
import {
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, apiWithHeaders } from '../../lib/api';
import { isLanguage } from '../../lib/i18n';
import { renewalKeys } from '../../lib/renewal-keys';
import { fetchVehicle, fetchVehicleList, vehicleKeys } from '../../lib/vehicle-list';

export const documentKeys = {
  all: ['documents'] as const,
  of: (vehicleId: number) => ['documents', vehicleId] as const,
};

export const fetchDocuments = (vehicleId: number, signal?: AbortSignal) =>
  api<VehicleDocument[]>(`/api/vehicles/${vehicleId}/documents`, { signal });

export const documentsQuery = (vehicleId: number) => ({
  queryKey: documentKeys.of(vehicleId),
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchDocuments(vehicleId, signal),
});

export const useDocuments = (vehicleId: number) => useQuery(documentsQuery(vehicleId));

const vehicleListQuery = {
  queryKey: vehicleKeys.list,
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchVehicleList(signal),
};

/** The Papers screen's data: the car list, then every car's documents (app/routes.tsx fetches it early). */
export async function prefetchAllPapers(client: QueryClient): Promise<void> {
  await client.prefetchQuery(vehicleListQuery);
  const list = client.getQueryData<{ vehicles: Vehicle[] }>(vehicleKeys.list)?.vehicles ?? [];
  await Promise.all(list.map((v) => client.prefetchQuery(documentsQuery(v.id))));
}

/**
 * One car's documents a page at a time (issue 54): DOCUMENTS_PAGE_SIZE per request, the next page's
 * cursor from X-Next-Cursor. Its key is under documentKeys.of(vehicleId), so every change that
 * refreshes the car's documents refreshes these pages too.
 */
export const useDocumentPages = (vehicleId: number) =>
  useInfiniteQuery({
    queryKey: [...documentKeys.of(vehicleId), 'pages'] as const,
    initialPageParam: null as string | null,
    queryFn: async ({ signal, pageParam }) => {
      const page = await apiWithHeaders<VehicleDocument[]>(`/api/vehicles/${vehicleId}/documents`, {
        signal,
        query: { limit: DOCUMENTS_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) },
      });
      return { items: page.data, nextCursor: page.headers.get('x-next-cursor') };
    },
    getNextPageParam: (last) => last.nextCursor,
  });

export const useDocumentVehicle = (vehicleId: number) =>
  useQuery({
    queryKey: vehicleKeys.one(vehicleId),
    queryFn: ({ signal }) => fetchVehicle(vehicleId, signal),
  });

/** The caller, for the country whose names the types are shown under (the same query as Settings). */
export const useMeForDocuments = () =>
  useQuery({ queryKey: ['users', 'me'], queryFn: () => api<User>('/api/users/me') });

/** Every car the user reaches with its documents (the Papers screen). */
export function useAllPapers() {
  const vehicles = useQuery(vehicleListQuery);
  const list: Vehicle[] = vehicles.data?.vehicles ?? [];
  const docs = useQueries({ queries: list.map((v) => documentsQuery(v.id)) });
  return { vehicles, list, docs };
}

/** What the form sends: the `data` part, the pages, and on an edit the document and its version. */
export type DocumentSave = { id?: number; version?: number; data: DocumentData; files: File[] };

/** The multipart body of POST (and of a PUT that replaces the pages). */
export function documentForm(data: DocumentData & { version?: number }, files: File[]): FormData {
  const form = new FormData();
  form.append('data', new Blob([JSON.stringify(data)], { type: 'application/json' }));
  for (const f of files) form.append('files', f, f.name);
  return form;
}

export function useSaveDocument(vehicleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version, data, files }: DocumentSave) => {
      const url = `/api/vehicles/${vehicleId}/documents`;
      if (id === undefined)
        return api<VehicleDocument>(url, { method: 'POST', body: documentForm(data, files) });
      const body = files.length ? documentForm({ ...data, version }, files) : { ...data, version };
      return api<VehicleDocument>(`${url}/${id}`, { method: 'PUT', body });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: documentKeys.of(vehicleId) });
      void queryClient.invalidateQueries({ queryKey: renewalKeys.of(vehicleId) });
    },
  });
}

export function useDeleteDocument(vehicleId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(`/api/vehicles/${vehicleId}/documents/${id}`, { method: 'DELETE' }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: documentKeys.of(vehicleId) });
      void queryClient.invalidateQueries({ queryKey: renewalKeys.of(vehicleId) });
    },
  });
}

/** The user's country, for the names the document types are shown under (their language's until set). */
export function useCountry(): Country {
  const { i18n } = useTranslation();
  const me = useMeForDocuments();
  const lang = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  return documentCountry(me.data?.country, lang);
}
