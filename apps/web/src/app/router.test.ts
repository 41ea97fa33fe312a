import { matchRoutes } from 'react-router'
import { expect, test } from 'vitest'
import { createAppRouter } from './router.tsx'

test('the invitation page matches under the data layout, which provides React Query', () => {
	const router = createAppRouter()
	const matches = matchRoutes(router.routes, '/invite/abc') ?? []
	// Root layout → data layout → the page: without the middle one the page has no QueryClient.
	expect(matches).toHaveLength(3)
	expect(matches[2]?.route.path).toBe('/invite/:id')
	router.dispose()
})

test.each(['/paused', '/pricing'])('%s matches under the data layout, outside the dashboard’s shell', (path) => {
	const router = createAppRouter()
	const matches = matchRoutes(router.routes, path) ?? []
	// Root layout → data layout → the page: the dashboard's gate would send /paused to itself.
	expect(matches.map((match) => match.route.path)).toEqual([undefined, undefined, path])
	router.dispose()
})
