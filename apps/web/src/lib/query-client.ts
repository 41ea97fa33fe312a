import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { ApiError } from './api-client.ts'

/** 401s are handled by the session (back to /login); everything else a user should hear about. */
function notify(error: unknown): void {
	if (error instanceof ApiError && error.status === 401) {
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
		mutationMeta: { isFormMutation?: boolean }
		/** The page shows the query's error itself: no toast. */
		queryMeta: { isErrorShownInPage?: boolean }
	}
}
