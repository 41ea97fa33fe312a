import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { getConnInfo } from '@hono/node-server/conninfo'
import { OpenAPIHono } from '@hono/zod-openapi'
import { APIError } from 'better-auth'
import { type Context, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { secureHeaders } from 'hono/secure-headers'
import type { Config } from './config.ts'
import { createAuthRoutes, mountAuthHandler } from './core/auth/auth.routes.ts'
import { type Auth, createAuth } from './core/auth/auth.ts'
import { fromAuthError } from './core/auth/auth-errors.ts'
import { createBackupControlRoutes } from './core/backups/backups.control.ts'
import { createBackupQueue } from './core/backups/backups.queue.ts'
import { clientLogMaxBytes, createClientLogRoutes } from './core/client-log/client-log.routes.ts'
import { createAccountDeletionRoutes } from './core/deletion/deletion.account.routes.ts'
import { createDeletion, type Deletion } from './core/deletion/deletion.module.ts'
import { createDeletionRoutes } from './core/deletion/deletion.routes.ts'
import { createExports, type Exports } from './core/exports/exports.module.ts'
import { createExportRoutes } from './core/exports/exports.routes.ts'
import { createSubscriptions, type Subscriptions } from './core/subscriptions/subscriptions.module.ts'
import { createSubscriptionRoutes } from './core/subscriptions/subscriptions.routes.ts'
import { createTeamRoutes } from './core/teams/teams.routes.ts'
import { uploadsExport } from './core/uploads/uploads.export.ts'
import { createUploadRoutes } from './core/uploads/uploads.routes.ts'
import { type Database, pingDatabase } from './db/client.ts'
import { type Charts, createCharts } from './features/charts/charts.module.ts'
import { chartsPurgeContributor, createChartsExport, dropChartProjections } from './features/charts/charts.public.ts'
import { createChartRoutes } from './features/charts/charts.routes.ts'
import { createForms, type Forms } from './features/forms/forms.module.ts'
import { createFormsExport } from './features/forms/forms.public.ts'
import { createFormRoutes, viewsFastRoute } from './features/forms/forms.routes.ts'
import { createInvoiceDocumentRoutes } from './features/invoices/invoices.documents.routes.ts'
import { createInvoiceFilterRoutes } from './features/invoices/invoices.filters.routes.ts'
import { createInvoices, type Invoices } from './features/invoices/invoices.module.ts'
import { createInvoicesExport } from './features/invoices/invoices.public.ts'
import { createRecurringRoutes } from './features/invoices/invoices.recurring.routes.ts'
import { createRecurringQueue } from './features/invoices/invoices.recurring.ts'
import { createInvoiceRoutes } from './features/invoices/invoices.routes.ts'
import { createInvoiceSendRoutes } from './features/invoices/invoices.send.routes.ts'
import { createInvoiceTemplateRoutes } from './features/invoices/invoices.templates.routes.ts'
import { createInvoiceVisitorRoutes } from './features/invoices/invoices.visitor.routes.ts'
import { createInvoiceWorkspaceRoutes } from './features/invoices/invoices.workspace.routes.ts'
import { createPortalAuthRoutes } from './features/portals/portals.auth.routes.ts'
import { createPortalBrandRoutes } from './features/portals/portals.brand.routes.ts'
import { createPortalMemberRoutes } from './features/portals/portals.members.routes.ts'
import { createPortals, type Portals } from './features/portals/portals.module.ts'
import { createPortalModuleRoutes } from './features/portals/portals.modules.routes.ts'
import { createPortalsExport, findPortalByHost, hostNameOf } from './features/portals/portals.public.ts'
import { createPortalCleanupQueue } from './features/portals/portals.session.ts'
import { createPortalSetupRoutes } from './features/portals/portals.setup.routes.ts'
import { createPortalVisitorRoutes } from './features/portals/portals.visitor.routes.ts'
import { releaseEntriesOf } from './features/time/time.account.ts'
import { createTime, type Time } from './features/time/time.module.ts'
import { createTimeExport } from './features/time/time.public.ts'
import { createTimeReportRoutes } from './features/time/time.reports.routes.ts'
import { createTimeRoutes } from './features/time/time.routes.ts'
import { createTimeShareRoutes } from './features/time/time.share.routes.ts'
import { bodyLimits } from './lib/body-limit.ts'
import { compression } from './lib/compression.ts'
import { type AppEnv, requestIdFrom } from './lib/context.ts'
import { AppError, toProblem } from './lib/errors.ts'
import { headersOf, withFastRoutes } from './lib/fast-routes.ts'
import { refuseInvalidText } from './lib/invalid-text.ts'
import { createJobs, type Jobs } from './lib/jobs.ts'
import type { Logger } from './lib/logger.ts'
import { createMailer } from './lib/mail.ts'
import { createLocalStorage, createS3Storage, type Storage } from './lib/storage.ts'
import { mountApiDocs } from './public/api-docs.ts'
import { isPortalPage, mountWebApp } from './public/web.ts'
import { createWorkspacesExport } from './workspaces/workspaces.export.ts'
import { createWorkspaces, type Workspaces } from './workspaces/workspaces.module.ts'
import { workspacesPurgeContributor } from './workspaces/workspaces.purge.ts'
import { createWorkspaceRoutes } from './workspaces/workspaces.routes.ts'
import { createNotionSignInGrants } from './workspaces/workspaces.service.ts'

type CspOptions = NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy']

export type AppServices = {
	config: Config
	database: Database
	log: Logger
	jobs: Jobs
	storage: Storage
	auth: Auth
	workspaces: Workspaces
	forms: Forms
	charts: Charts
	time: Time
	invoices: Invoices
	portals: Portals
	subscriptions: Subscriptions
	/** The organization export; features add their parts with `exports.register` (decision 040). */
	exports: Exports
	/** Deleting organizations and purging them; features add purge steps (decision 040). */
	deletion: Deletion
	/** Set while shutting down: /readyz answers 503 so load balancers stop sending traffic. */
	state: { isDraining: boolean }
}

/** Builds the services every module uses. Nothing runs until `jobs.start()` is called. */
export function createServices(options: {
	config: Config
	database: Database
	log: Logger
	/** Tests poll and retry faster than production needs to. */
	pollingIntervalSeconds?: number
	mailRetryDelaySeconds?: number
}): AppServices {
	const { config, database, log } = options
	const jobs = createJobs({
		database,
		log,
		// A web process only sends jobs; workers (ROLE=worker or all) work them (decision 027).
		isWorker: config.role !== 'web',
		...(options.pollingIntervalSeconds ? { pollingIntervalSeconds: options.pollingIntervalSeconds } : {}),
	})
	const storage = config.s3 ? createS3Storage(config.s3, log) : createLocalStorage(path.join(config.dataDir, 'uploads'))
	const mail = createMailer({
		smtpUrl: config.smtpUrl,
		from: config.mailFrom,
		mailDir: path.join(config.dataDir, 'mail'),
		log,
		jobs,
		storage,
		...(options.mailRetryDelaySeconds ? { retryDelaySeconds: options.mailRetryDelaySeconds } : {}),
	})
	// First: every module below registers its meters with it and asks it before making what a plan counts.
	const subscriptions = createSubscriptions({
		db: database.db,
		jobs,
		log,
		mail,
		billing: config.billing,
		publicUrl: config.publicUrl,
		authSecret: config.authSecret,
		rateLimits: config.rateLimits,
	})
	const workspaces = createWorkspaces({
		db: database.db,
		jobs,
		log,
		storage,
		publicUrl: config.publicUrl,
		authSecret: config.authSecret,
		rateLimits: config.rateLimits,
		notion: config.notion,
		sync: config.sync,
		writes: config.writes,
		webhookVerificationToken: config.notion.webhookVerificationToken,
		subscriptions,
	})
	// "Continue with Notion" connects the workspace its grant names, with the workspace layer's code (decision 020).
	const auth = createAuth({
		db: database.db,
		config,
		mail,
		log,
		notionSignIn: createNotionSignInGrants(workspaces.deps),
	})
	const forms = createForms({
		db: database.db,
		jobs,
		mail,
		log,
		storage,
		publicUrl: config.publicUrl,
		authSecret: config.authSecret,
		rateLimits: config.rateLimits,
		uploadMaxBytes: config.uploadMaxBytes,
		settings: config.forms,
		workspaces,
		subscriptions,
	})
	const charts = createCharts({ db: database.db, jobs, log, publicUrl: config.publicUrl, subscriptions })
	const time = createTime({ db: database.db, log, workspaces })
	const invoices = createInvoices({
		db: database.db,
		log,
		publicUrl: config.publicUrl,
		authSecret: config.authSecret,
		storage,
		mailer: mail,
		rateLimits: config.rateLimits,
		stripeApiBaseUrl: config.stripeApiBaseUrl,
		workspaces,
	})
	jobs.register(createRecurringQueue(() => invoices.deps))
	const portals = createPortals({
		db: database.db,
		log,
		publicUrl: config.publicUrl,
		authSecret: config.authSecret,
		mailer: mail,
		storage,
		rateLimits: config.rateLimits,
		workspaces,
		charts: charts.deps,
		subscriptions,
	})
	jobs.register(createPortalCleanupQueue(() => portals.deps))
	// The organization export (decision 040): the organization comes first (its own part), then
	// the databases and the uploads, then each feature's, one line each, in the order they should run.
	const dataExports = createExports({
		db: database.db,
		jobs,
		storage,
		mailer: mail,
		log,
		publicUrl: config.publicUrl,
		authSecret: config.authSecret,
		linkDays: config.exports.linkDays,
		tempDir: path.join(config.dataDir, 'tmp'),
	})
	dataExports.register(createWorkspacesExport(workspaces.deps))
	dataExports.register(uploadsExport)
	dataExports.register(createFormsExport(forms.deps))
	dataExports.register(createChartsExport(charts.deps))
	dataExports.register(createTimeExport(time.deps))
	dataExports.register(createInvoicesExport(invoices.deps))
	dataExports.register(createPortalsExport())
	// Deleting an organization (decision 040): its purge runs each feature's step first.
	const deletion = createDeletion({
		db: database.db,
		jobs,
		log,
		storage,
		subscriptions,
		graceDays: config.deletion.graceDays,
	})
	deletion.registerPurgeContributor(chartsPurgeContributor)
	deletion.registerPurgeContributor(workspacesPurgeContributor)
	workspaces.onDatabasesRemoved(async (databaseIds) => {
		await dropChartProjections(database.db, databaseIds)
	})
	// Automatic backups of the embedded database (decision 040); PostgreSQL is backed up with its own tools.
	if (database.kind === 'pglite' && config.backups.schedule) {
		jobs.register(createBackupQueue({ database, config, log }))
	}
	return {
		config,
		database,
		log,
		jobs,
		storage,
		auth,
		workspaces,
		forms,
		charts,
		time,
		invoices,
		portals,
		subscriptions,
		exports: dataExports,
		deletion,
		state: { isDraining: false },
	}
}

export function createApp(services: AppServices) {
	const { config, database, log, auth, storage } = services
	const db = database.db
	const app = new OpenAPIHono<AppEnv>()

	// The request's id (a proxy's, when it sent a sane one), address and logger, and its log line.
	app.use(async (c, next) => {
		const id = requestIdFrom(c.req.header('x-request-id'))
		c.set('requestId', id)
		c.set('clientIp', clientIpOf(c, config.trustProxy))
		const requestLog = log.child({ reqId: id })
		c.set('log', requestLog)
		const started = performance.now()
		await next()
		c.res.headers.set('x-request-id', id)
		const path = c.req.path
		requestLog[path === '/healthz' || path === '/readyz' ? 'debug' : 'info'](
			{ method: c.req.method, path, status: c.res.status, ms: Math.round(performance.now() - started) },
			'request',
		)
	})
	// Text compresses well (the web app's bundles, the API reference, large JSON); uploads are served
	// as stored, and export archives are ZIPs, compressed already.
	const compress = compression({ isImmutable: (path) => path.startsWith('/assets/') })
	app.use((c, next) =>
		c.req.path.startsWith('/api/uploads/') || c.req.path.startsWith('/api/exports/') ? next() : compress(c, next),
	)
	const headersFor = (csp: CspOptions) =>
		secureHeaders({
			contentSecurityPolicy: csp,
			crossOriginEmbedderPolicy: false,
			referrerPolicy: 'strict-origin-when-cross-origin',
			strictTransportSecurity: config.publicUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : false,
			permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
		})
	const pageHeaders = headersFor(contentSecurityPolicy(config))
	// Uploaded files come from users: served sandboxed, so none can run as a page of ours.
	const fileHeaders = headersFor({ defaultSrc: ["'none'"], sandbox: [] })
	const apiHeaders = apiSecurityHeaders(config)
	app.use(async (c, next) => {
		const path = c.req.path
		if (path.startsWith('/api/uploads/')) {
			return fileHeaders(c, next)
		}
		if (isApiPath(path)) {
			return apiHeaders(c, next)
		}
		await pageHeaders(c, next)
		// A published form's or chart's page may be embedded anywhere (iframe or popup snippets,
		// Notion's /embed block); every other page of ours, including one not published, refuses to be framed.
		if ((publicFormPage.test(path) || publicChartPage.test(path)) && c.res.status === 200 && !isPortalPage(c.res)) {
			const csp = c.res.headers.get('content-security-policy') ?? ''
			c.res.headers.set('content-security-policy', csp.replace("frame-ancestors 'none'", 'frame-ancestors *'))
			c.res.headers.delete('x-frame-options')
		}
		// The embed script is loaded by other sites' pages.
		if (path === '/embed.js' && c.res.status === 200) {
			c.res.headers.set('cross-origin-resource-policy', 'cross-origin')
		}
	})
	app.use(
		bodyLimits((path) =>
			path.startsWith('/api/uploads/')
				? config.uploadMaxBytes
				: path === '/api/log'
					? clientLogMaxBytes
					: config.bodyLimitBytes,
		),
	)
	app.use(refuseInvalidText(app.openAPIRegistry))

	mountHealthChecks(app, services)
	// `npm run backup` while the server holds the embedded database (decision 040): not in the API document.
	if (database.kind === 'pglite') {
		app.route('/', createBackupControlRoutes({ database, config }))
	}

	mountAuthHandler(app, auth)
	app.route('/', createAuthRoutes({ auth, db, confirmSignup: services.subscriptions.confirmSignup }))
	app.route('/', createTeamRoutes({ auth, db, config, subscriptions: services.subscriptions }))
	app.route('/', createExportRoutes({ auth, exports: services.exports.deps }))
	app.route('/', createSubscriptionRoutes({ auth, subscriptions: services.subscriptions }))
	app.route('/', createDeletionRoutes({ auth, deletion: () => services.deletion.deps }))
	app.route(
		'/',
		createAccountDeletionRoutes({
			auth,
			db,
			deletion: services.deletion.deps,
			rateLimits: config.rateLimits,
			// What features do before a person leaves organizations with their account (decision 040).
			leaveSteps: [(input) => releaseEntriesOf(services.time.deps, input)],
		}),
	)
	app.route(
		'/',
		createUploadRoutes({
			auth,
			db,
			storage,
			publicUrl: config.publicUrl,
			authSecret: config.authSecret,
			maxBytes: config.uploadMaxBytes,
			subscriptions: services.subscriptions,
		}),
	)
	app.route('/', createClientLogRoutes({ db }))
	// Before the workspaces': /dashboard/{tool}/databases would take /dashboard/local_time/databases as a tool named local_time.
	app.route('/', createTimeRoutes({ auth, time: services.time.deps }))
	app.route('/', createTimeReportRoutes({ auth, time: services.time.deps }))
	app.route(
		'/',
		createTimeShareRoutes({
			auth,
			time: services.time.deps,
			publicUrl: config.publicUrl,
			rateLimits: config.rateLimits,
			subscriptions: services.subscriptions,
		}),
	)
	// Before the workspaces' too: /dashboard/{tool}_portal/… (decision 038).
	app.route('/', createPortalSetupRoutes({ auth, portals: services.portals.deps }))
	app.route('/', createPortalMemberRoutes({ auth, portals: services.portals.deps }))
	app.route('/', createPortalBrandRoutes({ portals: services.portals.deps }))
	app.route('/', createPortalAuthRoutes({ portals: services.portals.deps }))
	app.route('/', createPortalVisitorRoutes({ portals: services.portals.deps }))
	app.route('/', createPortalModuleRoutes({ portals: services.portals.deps }))
	app.route('/', createInvoiceRoutes({ auth, invoices: services.invoices.deps }))
	app.route('/', createInvoiceTemplateRoutes({ auth, invoices: services.invoices.deps }))
	app.route('/', createInvoiceWorkspaceRoutes({ auth, invoices: services.invoices.deps }))
	app.route('/', createInvoiceDocumentRoutes({ auth, invoices: services.invoices.deps, time: services.time.deps }))
	app.route('/', createRecurringRoutes({ auth, invoices: services.invoices.deps }))
	app.route('/', createInvoiceFilterRoutes({ auth, invoices: services.invoices.deps }))
	app.route('/', createInvoiceSendRoutes({ auth, invoices: services.invoices.deps }))
	app.route('/', createInvoiceVisitorRoutes({ invoices: services.invoices.deps }))
	app.route('/', createWorkspaceRoutes({ auth, workspaces: services.workspaces.deps }))
	app.route(
		'/',
		createFormRoutes({
			auth,
			forms: services.forms.deps,
			views: services.forms.views,
			webhookQueues: services.forms.webhookQueues,
		}),
	)
	app.route('/', createChartRoutes({ auth, charts: services.charts.deps }))

	app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' })
	app.doc31('/api/openapi.json', {
		openapi: '3.1.0',
		info: {
			title: 'Blocksmith API',
			version: '1',
			description:
				'Charts, Invoices, Forms, Portals and Time Tracking on workspace databases. Errors are RFC 9457 problem+json. The sign-in endpoints (sign-up, sign-in, sign-out, sessions) live under /api/auth/* as better-auth defines them.',
		},
	})
	mountApiDocs(app)
	const ownHost = new URL(config.publicUrl).hostname
	mountWebApp(
		app,
		config.webDistDir,
		{
			analyticsScriptUrl: config.analyticsScriptUrl ?? null,
			sessionRefreshIntervalSeconds: config.sessionRefreshIntervalSeconds,
			isNotionSignInEnabled: auth.isNotionSignInEnabled,
			deletionGraceDays: config.deletion.graceDays,
		},
		[
			{ path: '/forms/:id', template: 'form.html', render: services.forms.renderPage },
			{ path: '/charts/:id', template: 'chart.html', render: services.charts.renderPage },
			{ path: '/charts/dashboards/:id', template: 'chart.html', render: services.charts.renderDashboard },
		],
		{
			// The server's own address is never a portal's (the setup refuses it): no query for its pages.
			findByHost: (host) => (hostNameOf(host) === ownHost ? Promise.resolve(null) : findPortalByHost(db, host)),
		},
	)

	app.notFound((c) => {
		throw new AppError('NOT_FOUND', { detail: `Nothing at ${c.req.method} ${c.req.path}.` })
	})
	app.onError((raw, c) => {
		const error = toAppError(raw)
		if (error.code === 'INTERNAL') {
			c.var.log.error({ err: raw }, 'unhandled error')
		}
		const problem = toProblem(error, c.var.requestId, c.req.path)
		const headers: Record<string, string> = { 'content-type': 'application/problem+json' }
		if (error.retryAfter) {
			headers['retry-after'] = String(error.retryAfter)
		}
		if (error.code === 'PAYLOAD_TOO_LARGE') {
			// The rest of the body is still on its way: the connection cannot carry another request.
			headers.connection = 'close'
		}
		return c.body(JSON.stringify(problem), problem.status as 400, headers)
	})
	return app
}

/**
 * /healthz: the process answers. /readyz: it may be sent traffic (jobs started, the database
 * answers, not shutting down); 503 otherwise, so load balancers and orchestrators stop using it.
 */
function mountHealthChecks(app: Hono<AppEnv>, services: AppServices): void {
	app.get('/healthz', (c) => c.json({ status: 'ok' }))
	app.get('/readyz', async (c) => {
		if (services.state.isDraining || !services.jobs.isRunning()) {
			return c.json({ status: 'unavailable' }, 503)
		}
		try {
			await pingDatabase(services.database)
			return c.json({ status: 'ready' })
		} catch {
			return c.json({ status: 'unavailable' }, 503)
		}
	})
}

/**
 * What a worker process (ROLE=worker) serves on PORT: only /healthz and /readyz, for an
 * orchestrator's checks. Everything else is a 404 problem; it never serves the app or the API.
 */
export function createWorkerApp(services: AppServices) {
	const app = new Hono<AppEnv>()
	mountHealthChecks(app, services)
	app.notFound((c) => {
		const detail = 'This is a worker process (ROLE=worker): it serves only /healthz and /readyz.'
		const problem = toProblem(new AppError('NOT_FOUND', { detail }), randomUUID(), c.req.path)
		return c.body(JSON.stringify(problem), 404, { 'content-type': 'application/problem+json' })
	})
	return app
}

// JSON is never rendered as a page: it needs only the headers that stop it being framed,
// sniffed as another type or read cross-origin. A smaller set on every API answer is less to send.
function apiSecurityHeaders(config: Config) {
	return secureHeaders({
		contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
		crossOriginEmbedderPolicy: false,
		crossOriginOpenerPolicy: false,
		originAgentCluster: false,
		xDnsPrefetchControl: false,
		xDownloadOptions: false,
		xPermittedCrossDomainPolicies: false,
		xXssProtection: false,
		xFrameOptions: 'DENY',
		referrerPolicy: 'strict-origin-when-cross-origin',
		strictTransportSecurity: config.publicUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : false,
	})
}

/**
 * The `createServer` that `serve` gets in main.ts: the app's request listener with the fast
 * routes in front of it (decision 041). Each fast route answers only what its declared route
 * would accept, with the same headers; everything else reaches the app.
 */
export async function createFastServer(services: AppServices) {
	return withFastRoutes({
		routes: [viewsFastRoute(services.forms.views)],
		maxBodyBytes: services.config.bodyLimitBytes,
		headers: await headersOf(apiSecurityHeaders(services.config)),
		log: services.log,
	})
}

/** Paths that answer JSON (the API reference at /api/docs is a page). */
function isApiPath(path: string): boolean {
	return (
		(path.startsWith('/api/') && !path.startsWith('/api/docs')) ||
		path.startsWith('/dashboard/') ||
		path.startsWith('/auth/') ||
		path === '/healthz' ||
		path === '/readyz'
	)
}

/** The public page of a form (`/forms/{id or slug}`), not the builder's pages under it. */
const publicFormPage = /^\/forms\/[^/]+$/
/** The public page of a chart (`/charts/{id}`) or dashboard, not their builders (`…/edit`). */
const publicChartPage = /^\/charts\/(dashboards\/)?[^/]+$/

function toAppError(error: unknown): AppError {
	if (error instanceof AppError) {
		return error
	}
	if (error instanceof APIError) {
		return fromAuthError(error.statusCode, error.body as { code?: unknown; message?: unknown } | undefined)
	}
	if (error instanceof HTTPException) {
		if (error.status === 400 && /json/i.test(error.message)) {
			return new AppError('MALFORMED_JSON')
		}
		if (error.status === 415) {
			return new AppError('UNSUPPORTED_MEDIA_TYPE', { detail: 'Send the body as application/json.' })
		}
		return fromAuthError(error.status, { message: error.message })
	}
	return new AppError('INTERNAL', { cause: error })
}

function clientIpOf(c: Context<AppEnv>, trustProxy: boolean): string {
	if (trustProxy) {
		const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
		if (forwarded) {
			return forwarded
		}
	}
	try {
		return getConnInfo(c).remote.address ?? 'unknown'
	} catch {
		// In-process requests (tests, app.request) have no socket.
		return 'local'
	}
}

function contentSecurityPolicy(config: Config): CspOptions {
	const analytics = config.analyticsScriptUrl ? [new URL(config.analyticsScriptUrl).origin] : []
	return {
		defaultSrc: ["'self'"],
		scriptSrc: ["'self'", ...analytics],
		connectSrc: ["'self'", ...analytics],
		styleSrc: ["'self'", "'unsafe-inline'"],
		imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
		fontSrc: ["'self'", 'data:'],
		objectSrc: ["'none'"],
		// The invoice designs' preview: a PDF fetched with the bearer token, shown from a blob URL.
		frameSrc: ["'self'", 'blob:'],
		baseUri: ["'self'"],
		formAction: ["'self'"],
		frameAncestors: ["'none'"],
	}
}
