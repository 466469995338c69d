import { useTranslation } from 'react-i18next';

/** A paged list's state, as react-query's useInfiniteQuery gives it. */
type PagedList = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
};

/**
 * The button under a paged list (the market, the inbox, a car's papers, the notifications): the next
 * page, if any. A list read from its newest (a chat) puts it on top, labelled `label` (Load earlier).
 */
export function LoadMore({ list, label }: { list: PagedList; label?: string }) {
  const { t } = useTranslation();
  if (!list.hasNextPage) return null;
  return (
    <div className="load-more">
      <button
        type="button"
        className="btn btn--secondary"
        onClick={() => void list.fetchNextPage()}
        disabled={list.isFetchingNextPage}
      >
        {list.isFetchingNextPage ? t('common.loading') : (label ?? t('forms.loadMore'))}
      </button>
    </div>
  );
}
