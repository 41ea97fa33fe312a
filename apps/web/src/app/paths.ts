/** Every route of the web app, in one place, so links and redirects never drift apart. */
export const paths = {
	home: '/',
	login: '/login',
	register: '/register',
	forgotPassword: '/forgot-password',
	resetPassword: '/reset-password',
	confirm: '/confirm',
	invite: (id: string) => `/invite/${encodeURIComponent(id)}`,
	charts: '/charts',
	forms: '/forms',
	publicForm: (id: string) => `/forms/${encodeURIComponent(id)}`,
	invoices: '/invoices',
	invoicesSettings: '/invoices/settings',
	invoice: (id: string) => `/invoices/${encodeURIComponent(id)}`,
	invoicesRecurring: '/invoices/recurring',
	invoicesDatabase: '/invoices/database',
	portals: '/portals',
	time: '/time',
	timeTimesheet: '/time/timesheet',
	timeReports: '/time/reports',
	/** With the view's tool when the link knows it: the page then asks only that tool for it. */
	timeReport: (id: string, tool?: 'local' | 'notion') =>
		`/time/reports/${encodeURIComponent(id)}${tool ? `?tool=${tool}` : ''}`,
	/** The signed-out page of a report shared by a link. */
	timeShared: (token: string) => `/time/shared/${encodeURIComponent(token)}`,
	timeSetup: '/time/setup',
	settings: '/settings',
	workspaces: '/workspaces',
	workspace: (id: string) => `/workspaces?workspace=${encodeURIComponent(id)}`,
	database: (workspaceId: string, databaseId: string) =>
		`/workspaces/${encodeURIComponent(workspaceId)}/databases/${encodeURIComponent(databaseId)}`,
	paused: '/paused',
	pricing: '/pricing',
	billing: '/settings?tab=billing',
} as const

/** Where to go after signing in: a path of ours (never another site), else home. */
export function safeNext(next: string | null): string {
	if (next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login')) {
		return next
	}
	return paths.home
}

export function loginWithNext(location: { pathname: string; search: string; hash: string }): string {
	const next = `${location.pathname}${location.search}${location.hash}`
	return next === '/' ? paths.login : `${paths.login}?next=${encodeURIComponent(next)}`
}
