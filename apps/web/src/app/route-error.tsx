import { useEffect } from 'react'
import { isRouteErrorResponse, useRouteError } from 'react-router'
import { reportError } from '#src/lib/error-beacon.ts'

/** Anything a page throws ends here: reported to the server, and a way back for the user. */
export function RouteError() {
	const error = useRouteError()
	useEffect(() => {
		if (!isRouteErrorResponse(error)) {
			reportError(error, { kind: 'route' })
		}
	}, [error])
	// A chunk that failed to load usually means a new version was deployed: a reload fixes it.
	const isStaleChunk =
		error instanceof Error && /dynamically imported module|Importing a module script/i.test(error.message)
	return (
		<main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
			<h1 className="font-semibold text-2xl">{isStaleChunk ? 'A new version is available' : 'Something went wrong'}</h1>
			<p className="text-muted-foreground">
				{isStaleChunk
					? 'Reload the page to continue.'
					: 'The error was reported. Reload the page, or go back to the start.'}
			</p>
			<div className="flex gap-3">
				<button type="button" className="underline" onClick={() => window.location.reload()}>
					Reload
				</button>
				<a className="underline" href="/">
					Home
				</a>
			</div>
		</main>
	)
}
