import type { User } from '@blocksmith/contracts/auth.ts'
import type {
	Plan,
	PlansResponse,
	Subscription,
	SubscriptionActionResult,
	SubscriptionOverview,
} from '@blocksmith/contracts/subscriptions.ts'
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryRouter, Outlet, type RouteObject, RouterProvider, useLocation } from 'react-router'
import { Toaster } from 'sonner'
import { ThemeProvider } from '#src/components/ui/theme.tsx'
import { createQueryClient } from '#src/lib/query-client.ts'
import { createSessionStore } from '#src/lib/session.ts'
import { SessionProvider } from '#src/lib/session-context.tsx'
import { renderWithUser } from '#src/test/render.tsx'

// Shared by the billing screens' tests: the server's catalogue and a subscription in any state
// (the API stand-in is #src/test/mock-api.tsx).

const gigabyte = 1024 ** 3

function plan(id: Plan['id'], name: string, month: number, changes: Partial<Plan> = {}): Plan {
	return {
		id,
		name,
		description: `The ${name} plan.`,
		currency: 'USD',
		prices: { month, year: month * 10 },
		limits: {
			members: 2,
			workspaces: 2,
			forms: 5,
			submissionsPerMonth: 1000,
			fileStorageBytes: gigabyte,
			charts: 10,
			dashboards: 2,
			portals: 1,
			portalMembers: 25,
			invoicesPerMonth: 20,
			timeTrackingUsers: 2,
		},
		switches: { removeBranding: false, customDomain: false, customCss: false },
		isHighlighted: false,
		...changes,
	}
}

export const plans: Plan[] = [
	plan('starter', 'Starter', 1200),
	plan('pro', 'Pro', 2900, {
		limits: {
			members: 5,
			workspaces: 5,
			forms: 50,
			submissionsPerMonth: 10_000,
			fileStorageBytes: 10 * gigabyte,
			charts: 100,
			dashboards: 20,
			portals: 3,
			portalMembers: 250,
			invoicesPerMonth: 200,
			timeTrackingUsers: 10,
		},
		switches: { removeBranding: true, customDomain: true, customCss: true },
		isHighlighted: true,
	}),
	plan('business', 'Business', 7900, {
		limits: {
			members: 25,
			workspaces: 20,
			forms: null,
			submissionsPerMonth: 100_000,
			fileStorageBytes: 100 * gigabyte,
			charts: null,
			dashboards: null,
			portals: 10,
			portalMembers: 2500,
			invoicesPerMonth: null,
			timeTrackingUsers: 50,
		},
		switches: { removeBranding: true, customDomain: true, customCss: true },
	}),
]

export function makePlans(changes: Partial<PlansResponse> = {}): PlansResponse {
	return { plans, trialDays: 14, trialPlanId: 'pro', provider: 'local', ...changes }
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()

/** A Pro trial with `trialDays` left (5 unless said), on the local provider. */
export function makeSubscription(changes: Partial<Subscription> = {}, trialDays = 5): Subscription {
	return {
		provider: 'local',
		planId: 'pro',
		interval: 'month',
		status: 'trialing',
		trialEndsAt: inDays(trialDays),
		currentPeriodStart: null,
		currentPeriodEnd: null,
		cancelAtPeriodEnd: false,
		canceledAt: null,
		pausedAt: null,
		pauseReason: null,
		resumesAt: null,
		pendingChange: null,
		paymentMethod: null,
		nextInvoice: null,
		...changes,
	}
}

/** An active monthly Pro subscription, renewing on 2026-12-15. */
export function activeSubscription(changes: Partial<Subscription> = {}): Subscription {
	return makeSubscription({
		status: 'active',
		trialEndsAt: null,
		currentPeriodStart: '2026-11-15T00:00:00.000Z',
		currentPeriodEnd: '2026-12-15T12:00:00.000Z',
		paymentMethod: { label: 'Visa ending 4242' },
		nextInvoice: { amount: 2900, currency: 'USD', at: '2026-12-15T12:00:00.000Z' },
		...changes,
	})
}

export function makeOverview(changes: Partial<SubscriptionOverview> = {}): SubscriptionOverview {
	const subscription = changes.subscription ?? makeSubscription()
	return {
		subscription,
		plan: plans.find((candidate) => candidate.id === subscription.planId) as Plan,
		usage: {
			monthStart: '2026-11-01T00:00:00.000Z',
			monthEnd: '2026-12-01T00:00:00.000Z',
			meters: [
				{ key: 'members', used: 2, limit: 5 },
				{ key: 'forms', used: 40, limit: 50 },
				{ key: 'submissionsPerMonth', used: 10_000, limit: 10_000 },
				{ key: 'fileStorageBytes', used: 3 * gigabyte, limit: 10 * gigabyte },
				{ key: 'charts', used: 3, limit: null },
			],
		},
		invoices: [],
		canManage: true,
		...changes,
	}
}

export function actionResult(subscription: Subscription, message = 'Done.'): SubscriptionActionResult {
	return { subscription, redirectUrl: null, message }
}

const signedInUser: User = {
	id: 'u1',
	name: 'Ada Lovelace',
	email: 'ada@example.com',
	emailVerified: true,
	image: null,
	createdAt: '2026-01-01T10:00:00.000Z',
	activeOrganizationId: 'org1',
}

function Root() {
	return (
		<>
			<Outlet />
			{/* Inside the router: a toast's action may be a link. */}
			<Toaster />
		</>
	)
}

/**
 * Renders `routes` as the app does around them: the session (signed in as `user`, or signed out
 * with null), the app's own query client (its error toasts included) and the toasts. Any other
 * path renders "Elsewhere: {path}".
 */
export function renderApp(routes: RouteObject[], path: string, { user = signedInUser }: { user?: User | null } = {}) {
	const store = createSessionStore()
	if (user) {
		store.signIn('token', user)
	}
	const queryClient = createQueryClient()
	const router = createMemoryRouter([{ Component: Root, children: [...routes, { path: '*', Component: Elsewhere }] }], {
		initialEntries: [path],
	})
	const rendered = renderWithUser(
		<ThemeProvider>
			<SessionProvider store={store}>
				<QueryClientProvider client={queryClient}>
					<RouterProvider router={router} />
				</QueryClientProvider>
			</SessionProvider>
		</ThemeProvider>,
	)
	return { ...rendered, router, queryClient, store }
}

function Elsewhere() {
	const location = useLocation()
	return <p>Elsewhere: {location.pathname}</p>
}
