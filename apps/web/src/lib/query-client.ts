import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { ApiError } from './api-client.ts'

/** Shows one kind of problem better than its detail alone can; true when it took the error. */
type ErrorPresenter = (error: ApiError) => boolean
const presenters = new Set<ErrorPresenter>()

/**
 * Lets a module above lib tell some problems its own way (billing: a plan's limit reached, with
 * an Upgrade link), since lib may not import it. Returns the way to take it back.
 */
export function addErrorPresenter(presenter: ErrorPresenter): () => void {
	presenters.add(presenter)
	return () => {
		presenters.delete(presenter)
	}
}

/** 401s are handled by the session (back to /login); everything else a user should hear about. */
function notify(error: unknown): void {
	if (error instanceof ApiError && error.status === 401) {
		return
	}
	if (error instanceof ApiError && [...presenters].some((present) => present(error))) {
		return
	}
	toast.error(error instanceof ApiError ? error.detail : 'Something went wrong. Try again.')
}

export function createQueryClient(): QueryClient {
	return new QueryClient({
		queryCache: new QueryCache({
			onError: (error, query) => {
				if (!query.meta?.isErrorShownInPage) {
					notify(error)
				}
			},
		}),
		mutationCache: new MutationCache({
			onError: (error, _variables, _context, mutation) => {
				if (mutation.meta?.isErrorShownInPage) {
					return
				}
				// Forms show field errors on their fields; they opt out of the toast for those.
				if (mutation.meta?.isFormMutation && error instanceof ApiError && error.fieldErrors.length > 0) {
					return
				}
				notify(error)
			},
		}),
		defaultOptions: {
			queries: {
				staleTime: 30_000,
				retry: (failureCount, error) =>
					failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
			},
		},
	})
}

declare module '@tanstack/react-query' {
	interface Register {
		/** `isErrorShownInPage`: the dialog or page says what went wrong itself (no toast). */
		mutationMeta: { isFormMutation?: boolean; isErrorShownInPage?: boolean }
		/** The page shows the query's error itself: no toast. */
		queryMeta: { isErrorShownInPage?: boolean }
	}
}
