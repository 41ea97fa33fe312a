import { createRoute, z } from '@hono/zod-openapi'
import { genericOAuth, oneTimeToken } from 'better-auth/plugins'
import type { Config } from '#src/config.ts'
import type { AppEnv } from '#src/lib/context.ts'
import type { Logger } from '#src/lib/logger.ts'
import { createRouter } from '#src/lib/openapi.ts'

// "Continue with Notion" (decision 020). Notion is a generic OAuth provider pointed at
// NOTION_API_BASE_URL, so the fake Notion of tests and demos goes through the same code as
// Notion. Notion's answer to the code is also a workspace grant: its token is handed to the
// workspace layer (which seals it in the workspace's credentials) and is never kept on the
// sign-in account. The callback's cookie is swapped for a one-time token the web app trades
// for its bearer token.

const notionProviderId = 'notion'

/** Where better-auth sends the browser after a Notion sign-in, and the web page that takes the token. */
export const notionSignInPaths = { finish: '/auth/notion/finish', page: '/login/notion', failed: '/login' } as const

/** One-time tokens live one minute: the browser uses theirs the moment it lands. */
const oneTimeTokenMinutes = 1
/** A grant waits here between the token exchange and the account's hook, in the same request. */
const grantTtlMs = 60_000

/** Notion's answer to a code: a workspace bot's token, and the person who gave it. */
export type NotionGrant = {
	accessToken: string
	refreshToken: string | null
	workspaceId: string
	workspaceName: string | null
	workspaceIcon: string | null
	owner: { id: string; name: string | null; email: string | null; avatarUrl: string | null } | null
}

/** What the workspace layer lends sign-in: its own token exchange and its own connection code. */
export type NotionSignInDeps = {
	exchangeCode: (input: { code: string; redirectUri: string }) => Promise<NotionGrant>
	/** Connects the grant's workspace in the organization (or refreshes its token) and queues its sync. */
	connectWorkspace: (input: { organizationId: string; userId: string; grant: NotionGrant }) => Promise<void>
}

type AccountData = {
	providerId?: string
	accountId?: string
	userId?: string
	accessToken?: string | null
	refreshToken?: string | null
}

function isNotionSignInConfigured(config: Config): boolean {
	return Boolean(config.notion.clientId && config.notion.clientSecret)
}

/**
 * The better-auth plugins and account hooks of Notion sign-in. `ensureOrganization` gives the
 * organization a session of the user starts in (creating the user's own when they have none):
 * the workspace is connected there, so the person lands where it is.
 */
export function createNotionSignIn(options: {
	config: Config
	log: Logger
	deps: NotionSignInDeps | undefined
	ensureOrganization: (userId: string) => Promise<string>
}) {
	const { config, log, deps } = options
	const grants = new Map<string, { grant: NotionGrant; expiresAt: number }>()
	const isEnabled = isNotionSignInConfigured(config) && deps !== undefined

	function keep(grant: NotionGrant) {
		const now = Date.now()
		for (const [key, entry] of grants) {
			if (entry.expiresAt < now) {
				grants.delete(key)
			}
		}
		if (grant.owner) {
			grants.set(grant.owner.id, { grant, expiresAt: now + grantTtlMs })
		}
	}

	function take(notionUserId: string): NotionGrant | undefined {
		const entry = grants.get(notionUserId)
		grants.delete(notionUserId)
		return entry && entry.expiresAt >= Date.now() ? entry.grant : undefined
	}

	const provider = genericOAuth({
		config: isEnabled
			? [
					{
						providerId: notionProviderId,
						name: 'Notion',
						clientId: config.notion.clientId ?? '',
						clientSecret: config.notion.clientSecret ?? '',
						authorizationUrl: `${config.notion.apiBaseUrl}/v1/oauth/authorize`,
						authorizationUrlParams: { owner: 'user' },
						// Notion knows no PKCE; the state (kept server-side, bound to a cookie) guards the callback.
						pkce: false,
						getToken: async ({ code, redirectURI }) => {
							const grant = await (deps as NotionSignInDeps).exchangeCode({ code, redirectUri: redirectURI })
							keep(grant)
							return {
								tokenType: 'bearer',
								accessToken: grant.accessToken,
								...(grant.refreshToken ? { refreshToken: grant.refreshToken } : {}),
								raw: { owner: grant.owner },
							}
						},
						getUserInfo: async (tokens) => {
							const owner = (tokens.raw as { owner?: NotionGrant['owner'] } | undefined)?.owner
							if (!owner) {
								return null
							}
							return {
								id: owner.id,
								name: owner.name ?? owner.email?.split('@')[0] ?? 'Notion user',
								email: owner.email,
								image: owner.avatarUrl ?? undefined,
								// Notion confirms a person's address before it lets them in.
								emailVerified: Boolean(owner.email),
							}
						},
					},
				]
			: [],
	})

	/** The grant's workspace joins the organization the user's sessions start in. */
	async function connect(account: AccountData) {
		if (account.providerId !== notionProviderId || !account.accountId || !account.userId || !deps) {
			return
		}
		const grant = take(account.accountId)
		if (!grant) {
			return
		}
		try {
			const organizationId = await options.ensureOrganization(account.userId)
			await deps.connectWorkspace({ organizationId, userId: account.userId, grant })
		} catch (error) {
			// The person is signed in all the same; the Workspaces page connects Notion again.
			log.error({ err: error }, 'notion sign-in: connecting the workspace failed')
		}
	}

	/** The token lives sealed in the workspace's credentials only. */
	function withoutTokens<T extends AccountData>(account: T): { data: T } | undefined {
		if (account.providerId !== notionProviderId) {
			return undefined
		}
		return { data: { ...account, accessToken: null, refreshToken: null } }
	}

	return {
		isEnabled,
		provider,
		oneTimeToken: oneTimeToken({
			expiresIn: oneTimeTokenMinutes,
			storeToken: 'hashed',
			// Only our finish route makes them, from the callback's cookie; no client can ask.
			disableClientRequest: true,
		}),
		accountHooks: {
			create: {
				before: async <T extends AccountData>(account: T) => withoutTokens(account),
				after: async (account: AccountData) => connect(account),
			},
			update: {
				before: async <T extends AccountData>(account: T) => withoutTokens(account),
				after: async (account: AccountData | null) => (account ? connect(account) : undefined),
			},
		},
	}
}

const finishRoute = createRoute({
	method: 'get',
	path: notionSignInPaths.finish,
	tags: ['Account'],
	summary:
		'End of "Continue with Notion": swaps the sign-in cookie for a one-time token and sends the browser to the web app',
	request: { query: z.object({ next: z.string().max(2000).optional() }) },
	responses: {
		302: { description: 'To /login/notion with a one-time token in the fragment, or to /login with an error' },
	},
})

type OneTimeTokenApi = {
	api: { generateOneTimeToken: (input: { headers: Headers }) => Promise<{ token: string }> }
}

/**
 * The one route that reads better-auth's cookie (decision 020): it turns the session the
 * callback just made into a one-minute, single-use token in the URL's fragment, which never
 * reaches a server log or a Referer; the page trades it for the bearer token.
 */
export function createNotionSignInRoutes(auth: OneTimeTokenApi) {
	const router = createRouter<AppEnv>()
	router.openapi(finishRoute, async (c) => {
		const next = safeNext(c.req.valid('query').next)
		let token: string
		try {
			;({ token } = await auth.api.generateOneTimeToken({
				headers: new Headers({ cookie: c.req.header('cookie') ?? '' }),
			}))
		} catch {
			return c.redirect(`${notionSignInPaths.failed}?error=session_not_found`, 302)
		}
		const query = next ? `?${new URLSearchParams({ next })}` : ''
		return c.redirect(`${notionSignInPaths.page}${query}#${new URLSearchParams({ token })}`, 302)
	})
	return router
}

/** A path of ours, never another site (`//evil.example` is one). */
function safeNext(next: string | undefined): string | undefined {
	return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : undefined
}
