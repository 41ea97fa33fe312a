import { z } from 'zod'
import { defaultFileRules, maxFormFileBytes, maxFormFiles } from './form-files.ts'
import { type FieldKind, fieldKindSchema } from './form-kinds.ts'
import { formLogicSchema } from './form-logic.ts'
import { parameterName, redirectTarget } from './form-thanks.ts'
import { formFonts } from './form-theme.ts'
import { directUploadRequestSchema } from './uploads.ts'
import { type PropertyType, workspaceToolSchema, writeStateSchema } from './workspaces.ts'

// Forms: a form is built on one workspace database; each field writes one property. Answers
// use the same value shapes as rows (workspaces.ts), keyed by field id.

/** The field kinds a property of each type can be asked with; the first is the default. */
export const fieldKindsByPropertyType: Partial<Record<PropertyType, FieldKind[]>> = {
	title: ['short_text'],
	rich_text: ['short_text', 'long_text'],
	number: ['number'],
	select: ['select'],
	multi_select: ['multi_select'],
	status: ['status'],
	date: ['date'],
	checkbox: ['checkbox'],
	url: ['url'],
	email: ['email'],
	phone_number: ['phone'],
	people: ['people'],
	relation: ['relation'],
	files: ['files'],
}

/** `.pdf`, `image/*` or `application/pdf`: what an `accept` attribute lists. */
const fileTypeSchema = z
	.string()
	.trim()
	.toLowerCase()
	.regex(
		/^(\.[a-z0-9]{1,10}|[a-z]+\/(\*|[a-z0-9][a-z0-9.+-]{0,100}))$/,
		'Use an extension (.pdf), a type (application/pdf) or a family (image/*).',
	)

/** A file-upload field's limits (form-files.ts reads them). */
export const formFileRulesSchema = z.object({
	maxFiles: z.number().int().min(1).max(maxFormFiles).default(defaultFileRules.maxFiles),
	maxFileBytes: z.number().int().min(1024).max(maxFormFileBytes).default(defaultFileRules.maxFileBytes),
	accept: z.array(fileTypeSchema).max(30).default([]),
})

export const formFieldSchema = z.object({
	/** Stable across edits; answers are keyed by it. */
	id: z.string().min(1).max(64),
	/** The database property this field writes. */
	propertyId: z.string().min(1).max(200),
	kind: fieldKindSchema,
	label: z.string().trim().min(1, 'Give the field a label.').max(200),
	helpText: z.string().max(1000).nullable().default(null),
	placeholder: z.string().max(200).nullable().default(null),
	required: z.boolean().default(false),
	/** A value of the field's shape (see PropertyValue), checked like an answer. */
	defaultValue: z.unknown().nullable().default(null),
	/** date: ask for a time as well as the day. */
	includeTime: z.boolean().default(false),
	/** Not shown: takes its value only from the page's URL (`?source=newsletter`), then is written like any answer. */
	hidden: z.boolean().default(false),
	/**
	 * The URL parameter that prefills this field (any field, hidden or not); by default the
	 * label in lowercase with underscores (see `prefillParamOf`).
	 */
	param: z
		.string()
		.regex(/^[a-z0-9_]{1,60}$/, 'Use lowercase letters, digits and underscores.')
		.nullable()
		.default(null),
	/** files: how many, how large and which types; null takes the defaults of form-files.ts. */
	fileRules: formFileRulesSchema.nullable().default(null),
})
export type FormField = z.infer<typeof formFieldSchema>

/** An image of the page head: an upload of the organization, or a link. `name` decides SVG handling. */
export const pageImageSchema = z.union([
	z.object({ blobId: z.string().min(1).max(64) }),
	z.object({ url: z.url({ protocol: /^https?$/ }).max(2000) }),
])
export type PageImage = z.infer<typeof pageImageSchema>

export const formPageSchema = z.object({
	pageTitle: z.string().trim().max(200).nullable().default(null),
	pageDescription: z.string().trim().max(500).nullable().default(null),
	pageThumbnail: pageImageSchema.nullable().default(null),
	favicon: pageImageSchema.nullable().default(null),
	extras: z.object({ indexable: z.boolean().default(false) }).default({ indexable: false }),
})
export type FormPage = z.infer<typeof formPageSchema>

const hexColorSchema = z
	.string()
	.regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #4338ca.')
	.transform((color) => color.toLowerCase())

/** How the public page looks (form-theme.ts). */
export const formThemeSchema = z.object({
	/** auto follows the visitor's system. */
	mode: z.enum(['auto', 'light', 'dark']).default('auto'),
	/** Buttons, ticks and focus rings; null keeps the product's indigo. */
	accentColor: hexColorSchema.nullable().default(null),
	/** Around the form; null keeps the page's own. */
	backgroundColor: hexColorSchema.nullable().default(null),
	font: z.enum(formFonts).default('default'),
	corners: z.enum(['rounded', 'square']).default('rounded'),
	/** Shown above the title. */
	logo: pageImageSchema.nullable().default(null),
	/** A wide image across the top of the form. */
	cover: pageImageSchema.nullable().default(null),
	/**
	 * The author's CSS, confined to the form (`html`, `body` and `:root` name the form itself). The
	 * server refuses @import, url() other than data: images and fonts, and at-rules that do not group rules.
	 */
	customCss: z.string().max(20_000, 'Keep custom CSS under 20,000 characters.').nullable().default(null),
	/** Hides "Made with Blocksmith" under the form. */
	removeBranding: z.boolean().default(false),
})
export type FormTheme = z.infer<typeof formThemeSchema>

/** When a published form stops taking answers by itself, and how often one person may answer. */
export const formLimitsSchema = z.object({
	/** The instant it closes; the builder picks it in `timeZone`. Its message is the form's closed message. */
	closesAt: z.iso.datetime({ offset: true }).nullable().default(null),
	timeZone: z.string().min(1).max(64).default('UTC'),
	maxSubmissions: z.number().int().min(1).max(1_000_000).nullable().default(null),
	limitReachedMessage: z
		.string()
		.trim()
		.min(1)
		.max(2000)
		.default('This form has received all the answers it can take. Thank you for your interest.'),
	/**
	 * One answer per person: by the value of an e-mail field (`emailFieldId`), or by a token kept
	 * in the visitor's browser (another browser, or clearing its storage, allows another answer).
	 */
	oneResponsePer: z.enum(['none', 'email', 'browser']).default('none'),
	emailFieldId: z.string().min(1).max(64).nullable().default(null),
	alreadyRespondedMessage: z
		.string()
		.trim()
		.min(1)
		.max(2000)
		.default('You have already answered this form. Thank you!'),
})
export type FormLimits = z.infer<typeof formLimitsSchema>

/** A thank-you redirect: http(s) only; `{Label}` placeholders are filled with the answers. */
export const redirectUrlSchema = z
	.string()
	.trim()
	.max(2000)
	.refine((url) => redirectTarget(url, [], {}, false) !== null, 'Enter a web address starting with https://.')

/** E-mails on each answer: to chosen members, and a confirmation to the person who answered. */
export const formNotificationsSchema = z.object({
	/** Members (user ids) told of each answer, with the answers and a link to the submissions. */
	memberIds: z.array(z.string().min(1).max(64)).max(50).default([]),
	respondent: z
		.object({
			enabled: z.boolean().default(false),
			/** The e-mail field whose answer receives the confirmation. */
			fieldId: z.string().min(1).max(64).nullable().default(null),
			subject: z.string().trim().min(1).max(200).default('We received your answer'),
			/** `{Label}` placeholders are filled with the answers. */
			message: z.string().trim().min(1).max(5000).default('Thank you, we received your answer.'),
			replyTo: z.email().max(254).nullable().default(null),
		})
		.default({
			enabled: false,
			fieldId: null,
			subject: 'We received your answer',
			message: 'Thank you, we received your answer.',
			replyTo: null,
		}),
})
export type FormNotifications = z.infer<typeof formNotificationsSchema>

export const slugSchema = z
	.string()
	.trim()
	.toLowerCase()
	.min(3, 'Use at least 3 characters.')
	.max(60, 'Use at most 60 characters.')
	.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lowercase letters, digits and single hyphens between them.')

export const formSchema = z.object({
	id: z.string(),
	name: z.string(),
	/** The custom address part (`/forms/{slug}`), or null for the id. */
	slug: z.string().nullable(),
	tool: workspaceToolSchema,
	workspaceId: z.string(),
	databaseId: z.string(),
	databaseName: z.string(),
	fields: z.array(formFieldSchema),
	/** Rules that show, hide or require fields by the answers (form-logic.ts). */
	logic: formLogicSchema,
	page: formPageSchema,
	/** Shown after a submission; `{Label}` placeholders are filled with the answers. */
	confirmationMessage: z.string(),
	/** Instead of the message, send the visitor here (with the answers as parameters when asked). */
	redirectUrl: z.string().nullable(),
	redirectWithAnswers: z.boolean(),
	submitLabel: z.string(),
	published: z.boolean(),
	/** A published form can stop taking answers and show `closedMessage`. */
	acceptingResponses: z.boolean(),
	closedMessage: z.string(),
	limits: formLimitsSchema,
	notifications: formNotificationsSchema,
	theme: formThemeSchema,
	/** The saved custom CSS as the public page uses it (confined to the form), for the builder's preview. */
	themeCss: z.string().nullable(),
	hasPassword: z.boolean(),
	submissionsCount: z.number().int(),
	createdAt: z.iso.datetime(),
	updatedAt: z.iso.datetime(),
})
export type Form = z.infer<typeof formSchema>

export const createFormSchema = z.object({
	name: z.string().trim().min(1).max(200),
	databaseId: z.string().min(1).max(64),
})
export type CreateForm = z.infer<typeof createFormSchema>

export const updateFormSchema = z
	.object({
		name: z.string().trim().min(1).max(200),
		fields: z.array(formFieldSchema).max(100, 'A form has at most 100 fields.'),
		logic: formLogicSchema,
		page: formPageSchema,
		confirmationMessage: z.string().trim().min(1).max(2000),
		redirectUrl: redirectUrlSchema.nullable(),
		redirectWithAnswers: z.boolean(),
		submitLabel: z.string().trim().min(1).max(60),
		published: z.boolean(),
		acceptingResponses: z.boolean(),
		closedMessage: z.string().trim().min(1).max(2000),
		limits: formLimitsSchema,
		notifications: formNotificationsSchema,
		theme: formThemeSchema,
		/** A new password; null removes it; absent keeps it. */
		password: z.string().min(4, 'Use at least 4 characters.').max(128).nullable(),
	})
	.partial()
export type UpdateForm = z.infer<typeof updateFormSchema>

export const updateUrlSchema = z.object({ slug: slugSchema })

// ---- the public side ----------------------------------------------------------------------

/** A field as visitors see it: with the property's options or the relation's database. */
export const publicFieldSchema = formFieldSchema.extend({
	/** select, multi_select, status: the choices. */
	options: z.array(z.string()).optional(),
	/** relation: our id of the related database, for the scoped choices read. */
	relationDatabaseId: z.string().nullable().optional(),
})
export type PublicField = z.infer<typeof publicFieldSchema>

/** The theme as the page applies it: images resolved, the custom CSS confined to the form. */
export const publicThemeSchema = z.object({
	mode: z.enum(['auto', 'light', 'dark']),
	accentColor: z.string().nullable(),
	/** White or black, whichever reads on the accent colour. */
	accentForeground: z.string().nullable(),
	backgroundColor: z.string().nullable(),
	font: z.enum(formFonts),
	corners: z.enum(['rounded', 'square']),
	logo: z.string().nullable(),
	cover: z.string().nullable(),
	css: z.string().nullable(),
	showBranding: z.boolean(),
})
export type PublicTheme = z.infer<typeof publicThemeSchema>

/** What `/forms/{id}` needs to render, written into the page by the server. */
export const publicFormSchema = z.object({
	id: z.string(),
	slug: z.string().nullable(),
	tool: workspaceToolSchema,
	name: z.string(),
	pageTitle: z.string().nullable(),
	pageDescription: z.string().nullable(),
	/** Absolute URL or `data:` URI (SVG, sanitised), ready for the head. */
	pageThumbnail: z.string().nullable(),
	favicon: z.string().nullable(),
	extras: z.object({ indexable: z.boolean() }),
	/** Null when the form is password-protected and not unlocked. */
	fields: z.array(publicFieldSchema).nullable(),
	/** The form's rules, evaluated in the browser as the visitor answers (and again on the server). */
	logic: formLogicSchema.nullable(),
	passwordRequired: z.boolean(),
	acceptingResponses: z.boolean(),
	closedMessage: z.string().nullable(),
	/** `browser`: send a `respondentToken` kept in this browser with each answer. */
	oneResponsePer: z.enum(['none', 'email', 'browser']),
	confirmationMessage: z.string(),
	submitLabel: z.string(),
	theme: publicThemeSchema,
	/** Signed proof of when the page was served, for the minimum fill time. */
	renderToken: z.string(),
})
export type PublicForm = z.infer<typeof publicFormSchema>

export const unlockFormSchema = z.object({ password: z.string().min(1).max(128) })
export const unlockResultSchema = z.object({
	unlockToken: z.string(),
	expiresAt: z.iso.datetime(),
	form: publicFormSchema,
})
export type UnlockResult = z.infer<typeof unlockResultSchema>

export const submitSchema = z.object({
	formId: z.string().min(1).max(100),
	/** Answers keyed by field id. */
	answers: z.record(z.string(), z.unknown()),
	/** Made once per filled-in form by the browser; a retried submit with it counts once. */
	idempotencyKey: z.string().min(8).max(100),
	renderToken: z.string().min(1).max(300),
	unlockToken: z.string().max(300).optional(),
	/** For forms that take one answer per browser: a random token this browser keeps for the form. */
	respondentToken: z.string().min(16).max(100).optional(),
	/** The honeypot: a field people never see. Anything in it marks the answer as spam. */
	website: z.string().max(2000).optional(),
	/**
	 * A portal member's signed identity (the `portal` parameter of a form opened from a portal):
	 * the server links the row to them itself. Refused when ended or forged.
	 */
	portalToken: z.string().max(2000).optional(),
})
export type Submit = z.infer<typeof submitSchema>

export const submitResultSchema = z.object({
	id: z.string(),
	/** True when this key had already been submitted; nothing new was stored. */
	duplicate: z.boolean(),
	/** The form's message with the answers put in. */
	confirmationMessage: z.string(),
	/** Where to send the visitor instead, when the form redirects. */
	redirectUrl: z.string().nullable(),
})
export type SubmitResult = z.infer<typeof submitResultSchema>

/** A file announced for a form's file field, before the visitor uploads it to the signed URL. */
export const formUploadSchema = directUploadRequestSchema.extend({
	fieldId: z.string().min(1).max(64),
	unlockToken: z.string().max(300).optional(),
})
export type FormUpload = z.infer<typeof formUploadSchema>

export const viewKindSchema = z.enum(['view', 'start'])
export const viewsSchema = z.object({
	/** A beacon may carry several events (a page that was viewed and started). */
	events: z
		.array(z.object({ formId: z.string().min(1).max(100), kind: viewKindSchema }))
		.min(1)
		.max(20),
})
export type ViewsBeacon = z.infer<typeof viewsSchema>

// ---- submissions and analytics ------------------------------------------------------------

export const deliverySchema = z.object({
	/** spam: caught by the honeypot and kept, never delivered. */
	state: z.union([writeStateSchema, z.literal('spam')]),
	attempts: z.number().int(),
	error: z.string().nullable(),
	/** The row it made, once delivered. */
	rowId: z.string().nullable(),
	/** Where to open the row: the Notion page, or the database in the app. */
	rowUrl: z.string().nullable(),
	deliveredAt: z.iso.datetime().nullable(),
})

export const submissionSchema = z.object({
	id: z.string(),
	formId: z.string(),
	answers: z.record(z.string(), z.unknown()),
	delivery: deliverySchema,
	createdAt: z.iso.datetime(),
})
export type Submission = z.infer<typeof submissionSchema>

export const submissionsPageSchema = z.object({
	submissions: z.array(submissionSchema),
	total: z.number().int(),
	counts: z.record(z.string(), z.number().int()),
})
export type SubmissionsPage = z.infer<typeof submissionsPageSchema>

export const submissionsQuerySchema = z.object({
	state: z.enum(['pending', 'delivered', 'failed', 'dead', 'spam']).optional(),
	limit: z.coerce.number().int().min(1).max(500).default(50),
	offset: z.coerce.number().int().min(0).default(0),
})

export const analyticsQuerySchema = z.object({
	from: z.iso.date().optional(),
	to: z.iso.date().optional(),
	/** IANA zone the days are counted in. */
	timeZone: z.string().max(64).default('UTC'),
})

export const analyticsSchema = z.object({
	from: z.iso.date(),
	to: z.iso.date(),
	timeZone: z.string(),
	views: z.number().int(),
	starts: z.number().int(),
	submissions: z.number().int(),
	/** Submissions per view, 0–1; null without views. */
	completionRate: z.number().nullable(),
	daily: z.array(
		z.object({ date: z.iso.date(), views: z.number().int(), starts: z.number().int(), submissions: z.number().int() }),
	),
})
export type FormAnalytics = z.infer<typeof analyticsSchema>

/** The field kinds a property of this type can be asked with; none for read-only types. */
export function fieldKindsFor(type: PropertyType): FieldKind[] {
	return fieldKindsByPropertyType[type] ?? []
}

// ---- webhooks -----------------------------------------------------------------------------

/** Webhooks one form may have. */
export const maxWebhooksPerForm = 10

export const createWebhookSchema = z.object({
	url: z.url({ protocol: /^https?$/, error: 'Enter a web address starting with https://.' }).max(2000),
})

export const updateWebhookSchema = z.object({ enabled: z.boolean() })

/**
 * A URL that receives each submission as JSON, signed as Standard Webhooks sign: the headers
 * `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body" with the secret's bytes>`.
 */
export const formWebhookSchema = z.object({
	id: z.string(),
	url: z.string(),
	/** `whsec_` and the base64 key: the receiver verifies signatures with it. */
	secret: z.string(),
	enabled: z.boolean(),
	createdAt: z.iso.datetime(),
})
export type FormWebhook = z.infer<typeof formWebhookSchema>

export const webhookAttemptSchema = z.object({
	at: z.iso.datetime(),
	/** The receiver's HTTP status, or null when there was no answer. */
	status: z.number().int().nullable(),
	error: z.string().nullable(),
	ms: z.number().int(),
})

export const webhookDeliverySchema = z.object({
	id: z.string(),
	webhookId: z.string(),
	submissionId: z.string(),
	/** pending (not tried yet, or waiting to be), delivered (a 2xx answer), failed (retrying), dead (gave up after 24 hours). */
	state: z.enum(['pending', 'delivered', 'failed', 'dead']),
	attempts: z.array(webhookAttemptSchema),
	nextAttemptAt: z.iso.datetime().nullable(),
	deliveredAt: z.iso.datetime().nullable(),
	createdAt: z.iso.datetime(),
})
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>

/** The URL parameter that prefills a field: its own `param`, or its label in lowercase with underscores. */
export function prefillParamOf(field: { label: string; param?: string | null }): string {
	return field.param || parameterName(field.label)
}
