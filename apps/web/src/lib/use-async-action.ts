import { useCallback, useRef, useState } from 'react'

type ActionState<R> =
	| { status: 'idle'; data: undefined; error: null }
	| { status: 'pending'; data: undefined; error: null }
	| { status: 'success'; data: R; error: null }
	| { status: 'error'; data: undefined; error: unknown }

/**
 * The state of one async action (submit a form, confirm a link) for the pages that load
 * before the dashboard: sign-in, sign-up, password reset, confirmation. They stay off React
 * Query so the first page most visitors see downloads as little as possible; the dashboard
 * uses React Query for everything.
 */
export function useAsyncAction<A, R>(
	action: (argument: A) => Promise<R>,
	options: { onSuccess?: (data: R, argument: A) => unknown; onError?: (error: unknown) => unknown } = {},
) {
	const [state, setState] = useState<ActionState<R>>({ status: 'idle', data: undefined, error: null })
	const latest = useRef({ action, options })
	latest.current = { action, options }
	const run = useRef(0)

	const execute = useCallback(async (argument: A) => {
		const id = ++run.current
		setState({ status: 'pending', data: undefined, error: null })
		try {
			const data = await latest.current.action(argument)
			if (id === run.current) {
				setState({ status: 'success', data, error: null })
				await latest.current.options.onSuccess?.(data, argument)
			}
		} catch (error) {
			if (id === run.current) {
				setState({ status: 'error', data: undefined, error })
				latest.current.options.onError?.(error)
			}
		}
	}, [])

	return {
		run: execute,
		isPending: state.status === 'pending',
		isSuccess: state.status === 'success',
		isError: state.status === 'error',
		data: state.data,
		error: state.error,
	}
}
