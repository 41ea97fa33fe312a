import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
	type PaymentProvider,
	type PlanId,
	paymentProviderSchema,
	planIdSchema,
} from '@blocksmith/contracts/subscriptions.ts'
import { z } from 'zod'

// The only file that reads process.env. Everything else receives a Config.

const booleanFromEnv = z
	.enum(['true', 'false', '1', '0', 'yes', 'no'])
	.transform((value) => value === 'true' || value === '1' || value === 'yes')

const envSchema = z.object({
	NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
	PORT: z.coerce.number().int().min(1).max(65535).default(3000),
	HOST: z.string().min(1).default('0.0.0.0'),
	DATA_DIR: z.string().min(1).default('./data'),
	DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
	ROLE: z.enum(['web', 'worker', 'all'], { error: 'must be web, worker or all' }).default('all'),
	PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional(),
	AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
	SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
	MAIL_FROM: z.string().min(3).default('Blocksmith <no-reply@localhost>'),
	LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
	TRUST_PROXY: booleanFromEnv.default(false),
	RATE_LIMITS: booleanFromEnv.default(true),
	BODY_LIMIT_BYTES: z.coerce
		.number()
		.int()
		.min(1024)
		.default(1024 * 1024),
	UPLOAD_MAX_BYTES: z.coerce
		.number()
		.int()
		.min(1024)
		.default(25 * 1024 * 1024),
	// Days, fractions allowed (a trial of minutes, for a demonstration or a browser journey).
	TRIAL_DAYS: z.coerce.number().min(0).max(365).default(14),
	BILLING_PROVIDER: paymentProviderSchema.default('local'),
	BILLING_TRIAL_PLAN: planIdSchema.default('pro'),
	BILLING_LOCAL_PLAN: planIdSchema.optional(),
	STRIPE_SECRET_KEY: z.string().min(1).optional(),
	STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
	STRIPE_API_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional(),
	ANALYTICS_SCRIPT_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional(),
	SESSION_REFRESH_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(0),
	WEB_DIST_DIR: z.string().min(1).optional(),
	SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(25_000),
	NOTION_API_BASE_URL: z
		.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
		.default('https://api.notion.com'),
	NOTION_CLIENT_ID: z.string().min(1).optional(),
	NOTION_CLIENT_SECRET: z.string().min(1).optional(),
	NOTION_WEBHOOK_VERIFICATION_TOKEN: z.string().min(1).optional(),
	NOTION_REQUESTS_PER_SECOND: z.coerce.number().min(0.1).max(100).default(3),
	NOTION_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(60_000),
	SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(10).default(300),
	RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(60).default(3600),
	WRITE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(12),
	WRITE_RETRY_DELAY_SECONDS: z.coerce.number().min(0.05).max(3600).default(30),
	WRITE_LEASE_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
	FORM_MIN_FILL_SECONDS: z.coerce.number().min(0).max(600).default(3),
	FORM_VIEW_FLUSH_MS: z.coerce.number().int().min(10).max(600_000).default(5000),
	FORM_WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().min(0.05).max(3600).default(30),
	WEBHOOK_ALLOW_PRIVATE: booleanFromEnv.default(false),
	S3_BUCKET: z
		.string()
		.regex(
			/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
			'must be a bucket name (3 to 63 lower-case letters, digits, dots, hyphens)',
		)
		.optional(),
	S3_REGION: z.string().min(1).optional(),
	S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional(),
	S3_ACCESS_KEY_ID: z.string().min(1).optional(),
	S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
	S3_FORCE_PATH_STYLE: booleanFromEnv.optional(),
	// Automatic backups of the embedded database (decision 040): a cron expression (UTC), or off.
	BACKUP_SCHEDULE: z
		.string()
		.regex(/^(off|(\S+\s+){4}\S+)$/, 'must be a cron expression of five fields (UTC), or off')
		.default('0 3 * * *'),
	BACKUP_KEEP: z.coerce.number().int().min(1).max(365).default(7),
	BACKUP_DIR: z.string().min(1).optional(),
	// Days an organization's deletion can be undone before everything of it is purged; fractions allowed.
	DELETION_GRACE_DAYS: z.coerce.number().min(0).max(365).default(30),
	// Days an export's download link works.
	EXPORT_LINK_DAYS: z.coerce.number().min(0.01).max(30).default(7),
})

export type Config = {
	env: 'development' | 'production' | 'test'
	/**
	 * What this process does (decision 027): `web` serves HTTP and only sends jobs, `worker` works
	 * the jobs and schedules and answers only /healthz and /readyz, `all` (the default) does both.
	 */
	role: 'web' | 'worker' | 'all'
	port: number
	host: string
	dataDir: string
	databaseUrl: string | undefined
	publicUrl: string
	authSecret: string
	smtpUrl: string | undefined
	mailFrom: string
	logLevel: z.infer<typeof envSchema>['LOG_LEVEL']
	trustProxy: boolean
	rateLimits: boolean
	bodyLimitBytes: number
	uploadMaxBytes: number
	trialDays: number
	billing: BillingConfig
	/** STRIPE_API_BASE_URL for every Stripe client (billing, and the teams' own accounts invoices are paid into). */
	stripeApiBaseUrl: string | null
	analyticsScriptUrl: string | undefined
	/** How often the web app re-checks its session; 0 = only on focus and on other tabs' changes. */
	sessionRefreshIntervalSeconds: number
	webDistDir: string
	shutdownTimeoutMs: number
	notion: {
		apiBaseUrl: string
		clientId: string | undefined
		clientSecret: string | undefined
		webhookVerificationToken: string | undefined
		requestsPerSecond: number
		timeoutMs: number
	}
	/** Seconds between incremental syncs, and between reconciles, of each Notion database. */
	sync: { incrementalSeconds: number; reconcileSeconds: number }
	/** Deliveries of row writes: attempts before giving up, first retry delay (doubling), attempt lease. */
	writes: { maxAttempts: number; retryDelaySeconds: number; leaseSeconds: number }
	/** Public forms: the least time a person takes to fill one in; how often view counts are written. */
	forms: { minFillSeconds: number; viewFlushMs: number; webhookRetryDelaySeconds: number; webhookAllowPrivate: boolean }
	/** Where uploaded files live: an S3-compatible bucket when S3_BUCKET is set, else DATA_DIR/uploads. */
	s3: S3Config | null
	/**
	 * Automatic backups of the embedded database and files (PGlite only; PostgreSQL is backed up
	 * with its own tools): the schedule (null: off), how many are kept, and where.
	 */
	backups: { schedule: string | null; keep: number; dir: string }
	/** An organization's deletion: days it can be restored before it is purged. */
	deletion: { graceDays: number }
	/** An organization's export: days its download link works. */
	exports: { linkDays: number }
}

type S3Config = {
	bucket: string
	region: string
	/** An S3-compatible store's URL; unset for AWS itself. */
	endpoint: string | null
	forcePathStyle: boolean
	/** Null: the SDK's own chain (AWS_* variables, an instance or task role). */
	credentials: { accessKeyId: string; secretAccessKey: string } | null
}

export type BillingConfig = {
	provider: PaymentProvider
	/** Days of a new organization's trial (TRIAL_DAYS), on `trialPlan`'s limits. */
	trialDays: number
	trialPlan: PlanId
	/**
	 * BILLING_LOCAL_PLAN (local provider only): every organization is on this plan, active, with
	 * no trial and no payments: a self-hosted installation's operator grants it by configuration.
	 */
	localPlan: PlanId | null
	/** Set when the provider is Stripe. `apiBaseUrl` points the SDK elsewhere (the tests' fake Stripe). */
	stripe: { secretKey: string; webhookSecret: string; apiBaseUrl: string | null } | null
}

export class ConfigError extends Error {}

/**
 * Reads and validates the environment. A wrong value throws a ConfigError whose message
 * is one line naming the variable; `main.ts` prints it and exits.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
	const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''))
	const parsed = envSchema.safeParse(cleaned)
	if (!parsed.success) {
		const issue = parsed.error.issues[0]
		const name = String(issue?.path[0] ?? 'environment')
		throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'} (got "${env[name] ?? ''}")`)
	}
	const values = parsed.data
	if (values.BILLING_PROVIDER === 'stripe' && !(values.STRIPE_SECRET_KEY && values.STRIPE_WEBHOOK_SECRET)) {
		throw new ConfigError(
			'Invalid configuration: BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
		)
	}
	// A delivery creates a row only while its lease outlasts Notion's timeout by 5 s (workspaces.writes.ts).
	if (values.WRITE_LEASE_SECONDS * 1000 <= values.NOTION_TIMEOUT_MS + 5000) {
		throw new ConfigError(
			`Invalid configuration: WRITE_LEASE_SECONDS (${values.WRITE_LEASE_SECONDS}) must be more than NOTION_TIMEOUT_MS / 1000 + 5 (${values.NOTION_TIMEOUT_MS / 1000 + 5})`,
		)
	}
	// PGlite is one process per data folder (decision 002): web and worker apart need PostgreSQL.
	if (values.ROLE !== 'all' && !values.DATABASE_URL) {
		throw new ConfigError(
			`Invalid configuration: ROLE=${values.ROLE} needs DATABASE_URL (PostgreSQL); the embedded database runs web and worker in one process (ROLE=all)`,
		)
	}
	const s3 = s3ConfigOf(values)
	const dataDir = path.resolve(values.DATA_DIR)
	const secrets = values.AUTH_SECRET ? { authSecret: values.AUTH_SECRET } : loadOrCreateSecrets(dataDir)
	return {
		env: values.NODE_ENV,
		role: values.ROLE,
		port: values.PORT,
		host: values.HOST,
		dataDir,
		databaseUrl: values.DATABASE_URL,
		publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
		authSecret: secrets.authSecret,
		smtpUrl: values.SMTP_URL,
		mailFrom: values.MAIL_FROM,
		logLevel: values.LOG_LEVEL,
		trustProxy: values.TRUST_PROXY,
		rateLimits: values.RATE_LIMITS,
		bodyLimitBytes: values.BODY_LIMIT_BYTES,
		uploadMaxBytes: values.UPLOAD_MAX_BYTES,
		trialDays: values.TRIAL_DAYS,
		billing: {
			provider: values.BILLING_PROVIDER,
			trialDays: values.TRIAL_DAYS,
			trialPlan: values.BILLING_TRIAL_PLAN,
			localPlan: values.BILLING_PROVIDER === 'local' ? (values.BILLING_LOCAL_PLAN ?? null) : null,
			stripe:
				values.BILLING_PROVIDER === 'stripe' && values.STRIPE_SECRET_KEY && values.STRIPE_WEBHOOK_SECRET
					? {
							secretKey: values.STRIPE_SECRET_KEY,
							webhookSecret: values.STRIPE_WEBHOOK_SECRET,
							apiBaseUrl: values.STRIPE_API_BASE_URL?.replace(/\/+$/, '') ?? null,
						}
					: null,
		},
		stripeApiBaseUrl: values.STRIPE_API_BASE_URL?.replace(/\/+$/, '') ?? null,
		analyticsScriptUrl: values.ANALYTICS_SCRIPT_URL,
		sessionRefreshIntervalSeconds: values.SESSION_REFRESH_INTERVAL_SECONDS,
		webDistDir: path.resolve(values.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
		shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
		notion: {
			apiBaseUrl: values.NOTION_API_BASE_URL.replace(/\/+$/, ''),
			clientId: values.NOTION_CLIENT_ID,
			clientSecret: values.NOTION_CLIENT_SECRET,
			webhookVerificationToken: values.NOTION_WEBHOOK_VERIFICATION_TOKEN,
			requestsPerSecond: values.NOTION_REQUESTS_PER_SECOND,
			timeoutMs: values.NOTION_TIMEOUT_MS,
		},
		sync: { incrementalSeconds: values.SYNC_INTERVAL_SECONDS, reconcileSeconds: values.RECONCILE_INTERVAL_SECONDS },
		writes: {
			maxAttempts: values.WRITE_MAX_ATTEMPTS,
			retryDelaySeconds: values.WRITE_RETRY_DELAY_SECONDS,
			leaseSeconds: values.WRITE_LEASE_SECONDS,
		},
		forms: {
			minFillSeconds: values.FORM_MIN_FILL_SECONDS,
			viewFlushMs: values.FORM_VIEW_FLUSH_MS,
			webhookRetryDelaySeconds: values.FORM_WEBHOOK_RETRY_DELAY_SECONDS,
			webhookAllowPrivate: values.WEBHOOK_ALLOW_PRIVATE,
		},
		s3,
		backups: {
			schedule: values.BACKUP_SCHEDULE === 'off' ? null : values.BACKUP_SCHEDULE,
			keep: values.BACKUP_KEEP,
			dir: path.resolve(values.BACKUP_DIR ?? path.join(dataDir, 'backups')),
		},
		deletion: { graceDays: values.DELETION_GRACE_DAYS },
		exports: { linkDays: values.EXPORT_LINK_DAYS },
	}
}

/** S3_BUCKET turns object storage on; any other S3_* setting without it is a mistake, not a default. */
function s3ConfigOf(values: z.infer<typeof envSchema>): S3Config | null {
	const others = (
		['S3_REGION', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const
	).filter((name) => values[name] !== undefined)
	if (!values.S3_BUCKET) {
		if (others.length > 0) {
			throw new ConfigError(
				`Invalid configuration: ${others.join(', ')} set without S3_BUCKET; set S3_BUCKET to store files in a bucket, or remove the S3_* settings to keep them in DATA_DIR/uploads`,
			)
		}
		return null
	}
	if (Boolean(values.S3_ACCESS_KEY_ID) !== Boolean(values.S3_SECRET_ACCESS_KEY)) {
		throw new ConfigError(
			"Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or leave both unset for the AWS SDK's own credentials)",
		)
	}
	const endpoint = values.S3_ENDPOINT?.replace(/\/+$/, '') ?? null
	return {
		bucket: values.S3_BUCKET,
		region: values.S3_REGION ?? 'us-east-1',
		endpoint,
		// Most S3-compatible stores (MinIO, a test server) serve buckets by path, not by host name.
		forcePathStyle: values.S3_FORCE_PATH_STYLE ?? endpoint !== null,
		credentials:
			values.S3_ACCESS_KEY_ID && values.S3_SECRET_ACCESS_KEY
				? { accessKeyId: values.S3_ACCESS_KEY_ID, secretAccessKey: values.S3_SECRET_ACCESS_KEY }
				: null,
	}
}

const secretsFileSchema = z.object({ authSecret: z.string().min(32) })

/**
 * So that `npm start` needs no setup, a missing AUTH_SECRET is generated once and kept in
 * the data folder (mode 0600). Several instances on one PostgreSQL must share AUTH_SECRET
 * through the environment instead.
 */
function loadOrCreateSecrets(dataDir: string): z.infer<typeof secretsFileSchema> {
	const file = path.join(dataDir, 'secrets.json')
	try {
		return secretsFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
			throw new ConfigError(`Invalid configuration: ${file} is unreadable or malformed; fix or delete it`)
		}
	}
	mkdirSync(dataDir, { recursive: true })
	const secrets = { authSecret: randomBytes(32).toString('base64url') }
	// 'wx' fails if another process created the file in the meantime; then read theirs.
	try {
		writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
		return secrets
	} catch {
		return secretsFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
	}
}
