import { z } from 'zod'
import { defaultFileRules, maxFormFileBytes, maxFormFiles } from './form-files.ts'
import { type FieldKind, fieldKindSchema } from './form-kinds.ts'
import { conditionSchema, formLogicSchema } from './form-logic.ts'
import { formTemplateIds } from './form-template-ids.ts'
import { parameterName, redirectTarget } from './form-thanks.ts'
import { formFonts } from './form-theme.ts'
import { directUploadRequestSchema } from './uploads.ts'
import { type PropertyType, rowFilterSchema, workspaceToolSchema, writeStateSchema } from './workspaces.ts'

// Forms: a form is built on one workspace database. Its `fields` list holds, in page order, the
// questions (each writes one property, or is kept with the answer only when it has none) and the
// content between them (headings, text, images, dividers, page breaks). Answers use the same value
// shapes as rows (workspaces.ts), keyed by field id; the new kinds' shapes are in `answerShapes`.

/** An image of the page head: an upload of the organization, or a link. `name` decides SVG handling. */
export const pageImageSchema = z.union([
	z.object({ blobId: z.string().min(1).max(64) }),
	z.object({ url: z.url({ protocol: /^https?$/ }).max(2000) }),
])
export type PageImage = z.infer<typeof pageImageSchema>

/** The question kinds a property of each type can be asked with; the first is the default. */
export const fieldKindsByPropertyType: Partial<Record<PropertyType, FieldKind[]>> = {
	title: ['short_text'],
	rich_text: ['short_text', 'long_text', 'ranking', 'matrix'],
	number: ['number', 'rating', 'scale', 'nps', 'calculated'],
	select: ['select'],
	multi_select: ['multi_select', 'ranking'],
	status: ['status'],
	date: ['date'],
	checkbox: ['checkbox'],
	url: ['url'],
	email: ['email'],
	phone_number: ['phone'],
	people: ['people'],
	relation: ['relation'],
	files: ['files', 'signature'],
}

/**
 * The answer each new kind sends and stores (the older kinds use the row value shapes):
 * - rating, scale, nps: a whole number in the field's range;
 * - ranking: every choice once, as a list in the visitor's order;
 * - signature: like files, a list of one uploaded blob id (a PNG), which becomes a file;
 * - matrix: `{ [row]: column }`, or `{ [row]: column[] }` when `matrix.multiple`;
 * - calculated: worked out by the server from the other answers (form-rules.ts); anything sent is ignored.
 * Written to a rich_text property, ranking is "1. A" lines and matrix "Row: Column" lines.
 */
export type AnswerShapes = {
	rating: number
	scale: number
	nps: number
	ranking: string[]
	signature: string[]
	matrix: Record<string, string | string[]>
	calculated: number
}

/** Which related rows (relation) or people a visitor may pick from (issue 19). */
export const choiceScopeSchema = z.discriminatedUnion('mode', [
	/** Every row of the related database (the first 100 by title), or every person. */
	z.object({ mode: z.literal('all') }),
	/** relation: only the related rows that match every filter (on the related database's properties). */
	z.object({ mode: z.literal('filter'), filters: z.array(rowFilterSchema).min(1).max(10) }),
	/** Only these: row ids (relation) or people ids (people). */
	z.object({ mode: z.literal('subset'), ids: z.array(z.string().min(1).max(200)).min(1).max(200) }),
	/** Nothing is listed: matches appear after two typed characters, at most 10 of them. */
	z.object({ mode: z.literal('search') }),
])
export type ChoiceScope = z.infer<typeof choiceScopeSchema>

/** What search-only choices need before they answer, and how many they give. */
export const searchOnlyChoices = { minChars: 2, maxResults: 10 } as const

const decimalTextSchema = z
	.string()
	.trim()
	.regex(/^-?\d{1,12}(\.\d{1,6})?$/, 'Use a number such as 12 or 49.90.')

/** One step of a calculation: `operation` with a fixed number or an earlier numeric answer, when `when` matches. */
export const calculationStepSchema = z.object({
	/** All must match (form-rules.ts conditions on earlier questions); empty: always. */
	when: z.array(conditionSchema).max(10).default([]),
	operation: z.enum(['add', 'subtract', 'multiply', 'divide', 'set']),
	operand: z.union([
		z.object({ value: decimalTextSchema }),
		/** An earlier question of a numeric kind (number, rating, scale, nps, calculated); empty reads as 0. */
		z.object({ fieldId: z.string().min(1).max(64) }),
	]),
})
export type CalculationStep = z.infer<typeof calculationStepSchema>

/** A calculated field: starts at `start` and applies each step in order, exactly (decimals, never floats). */
export const formCalculationSchema = z.object({
	start: decimalTextSchema.default('0'),
	steps: z.array(calculationStepSchema).max(50, 'A calculation has at most 50 steps.').default([]),
	/** The result is rounded half-up to this many decimals. */
	decimals: z.number().int().min(0).max(6).default(0),
	/** Shown around the number on the page: "€", " pts". */
	prefix: z.string().max(10).nullable().default(null),
	suffix: z.string().max(10).nullable().default(null),
})
export type FormCalculation = z.infer<typeof formCalculationSchema>

const choiceLabelSchema = z.string().trim().min(1, 'Name the choice.').max(200)

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
	/** Stable across edits; answers are keyed by it (and page breaks name their page by it). */
	id: z.string().min(1).max(64),
	/**
	 * The database property this question writes; null keeps the answer with the submission only
	 * (webhooks, e-mails and CSV carry it). Always null for content.
	 */
	propertyId: z.string().min(1).max(200).nullable().default(null),
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
	/** short_text, long_text: at most this many characters (a counter shows near it); null: the kind's limit. */
	maxLength: z.number().int().min(1).max(20_000).nullable().default(null),
	/** ranking, and select or multi_select without a property: the choices, in order. */
	choices: z.array(choiceLabelSchema).max(100).nullable().default(null),
	/** rating (min is 1), scale: the range and the words at its ends; nps is always 0–10. */
	scale: z
		.object({
			min: z.number().int().min(0).max(1).default(1),
			max: z.number().int().min(2).max(10).default(5),
			minLabel: z.string().trim().max(60).nullable().default(null),
			maxLabel: z.string().trim().max(60).nullable().default(null),
		})
		.nullable()
		.default(null),
	matrix: z
		.object({
			rows: z.array(choiceLabelSchema).min(1, 'Add a row.').max(20),
			columns: z.array(choiceLabelSchema).min(2, 'Add at least two columns.').max(10),
			/** Several columns per row (checkboxes) instead of one (radio buttons). */
			multiple: z.boolean().default(false),
		})
		.nullable()
		.default(null),
	calculation: formCalculationSchema.nullable().default(null),
	/** relation, people: which choices visitors may see (the public reads give nothing else). */
	choiceScope: choiceScopeSchema.default({ mode: 'all' }),
	/** paragraph: its text, with **bold** and [links](https://…); the label names it in the builder. */
	body: z.string().max(5000).nullable().default(null),
	/** image: the picture; the label is its alternative text. */
	image: pageImageSchema.nullable().default(null),
})
export type FormField = z.infer<typeof formFieldSchema>

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

/** How the page presents the questions (issue 19). */
export const formLayoutSchema = z.object({
	/**
	 * classic: a page at a time (page breaks split the form, with back and next); one_at_a_time:
	 * one question per screen, Typeform's way, moved through with the keyboard.
	 */
	display: z.enum(['classic', 'one_at_a_time']).default('classic'),
	/** A bar and "Page 2 of 3" (or "3 of 12" questions) above the form. */
	showProgress: z.boolean().default(true),
})
export type FormLayout = z.infer<typeof formLayoutSchema>

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
	/** Rules that show, hide or require fields, or jump to a page, by the answers (form-logic.ts). */
	logic: formLogicSchema,
	layout: formLayoutSchema,
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

/**
 * A new form: on a database of the organization (`databaseId`), or on a new built-in database made
 * for it (`newDatabase`, in that built-in workspace or the organization's first one, made when it
 * has none). A `template` (form-templates.ts) brings its questions, and with a new database the
 * properties they write; on an existing database its questions take the properties that fit by
 * name and type, and the others are kept with the answers.
 */
export const createFormSchema = z
	.object({
		name: z.string().trim().min(1).max(200),
		databaseId: z.string().min(1).max(64).optional(),
		newDatabase: z.object({ workspaceId: z.string().min(1).max(64).optional() }).optional(),
		template: z.enum(formTemplateIds, { error: 'Pick one of the templates.' }).optional(),
	})
	.superRefine((input, ctx) => {
		if ((input.databaseId === undefined) === (input.newDatabase === undefined)) {
			ctx.addIssue({
				code: 'custom',
				path: ['databaseId'],
				message: 'Pick a database, or ask for a new one.',
			})
		}
	})
export type CreateForm = z.infer<typeof createFormSchema>

export const updateFormSchema = z
	.object({
		name: z.string().trim().min(1).max(200),
		fields: z.array(formFieldSchema).max(100, 'A form has at most 100 fields.'),
		logic: formLogicSchema,
		layout: formLayoutSchema,
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

/**
 * A field as visitors see it: with the property's options or the relation's database. Which
 * choices a relation or people field lists is the server's business: visitors learn only whether
 * they must search (`searchOnly`), never the filter or the chosen ids.
 */
export const publicFieldSchema = formFieldSchema.omit({ choiceScope: true }).extend({
	/** select, multi_select, status, ranking: the choices (the property's options, or the field's own). */
	options: z.array(z.string()).optional(),
	/** relation: our id of the related database, for the scoped choices read. */
	relationDatabaseId: z.string().nullable().optional(),
	/** relation, people: nothing is listed until two characters are typed. */
	searchOnly: z.boolean().optional(),
	/** image: the picture's address (absolute, or a sanitised SVG `data:` URI). */
	imageUrl: z.string().nullable().optional(),
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
	layout: formLayoutSchema,
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

/**
 * view: the page was loaded; start: the visitor began answering; reach: the visitor reached a step,
 * `step` being a question's id (shown on its screen, or focused on a classic page) or a page
 * break's id (its page opened). Each step is reported once per visit; no answer is ever sent.
 */
export const viewKindSchema = z.enum(['view', 'start', 'reach'])
export const viewsSchema = z.object({
	/** A beacon may carry several events (a page that was viewed and started). */
	events: z
		.array(
			z.object({
				formId: z.string().min(1).max(100),
				kind: viewKindSchema,
				/** reach: the question or page break reached; a step that is not in the form counts nothing. */
				step: z
					.string()
					.min(1)
					.max(64)
					// Counted with the others of its form in one statement: a NUL byte (which PostgreSQL
					// refuses in text) must not cost them their counts.
					.refine((step) => !step.includes('\u0000'), 'A step is a question’s or page break’s id.')
					.optional(),
			}),
		)
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

/** One try at writing an answer into the workspace. */
export const deliveryAttemptSchema = z.object({
	at: z.iso.datetime(),
	/** Null when it went through. */
	error: z.string().nullable(),
	ms: z.number().int().nullable(),
})

/** DELETE …/submissions/{submissionId}: the answer and its files; the row too only when asked. */
export const deleteSubmissionQuerySchema = z.object({
	deleteRow: z
		.enum(['true', 'false'])
		.default('false')
		.transform((value) => value === 'true'),
})

export const submissionsPageSchema = z.object({
	submissions: z.array(submissionSchema),
	total: z.number().int(),
	counts: z.record(z.string(), z.number().int()),
})
export type SubmissionsPage = z.infer<typeof submissionsPageSchema>

export const submissionsQuerySchema = z.object({
	state: z.enum(['pending', 'delivered', 'failed', 'dead', 'spam']).optional(),
	/** Answers that contain this text, in any field (case-insensitive). */
	q: z.string().trim().max(200).optional(),
	/** With `value`: answers whose field `field` contains `value` (a choice among a list's, text within text). */
	field: z.string().min(1).max(64).optional(),
	value: z.string().trim().max(200).optional(),
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
	/**
	 * Drop-off: the form's questions and pages in order, with how many visits reached each. `dropOff`
	 * is the share (0–1) of those that reached it and did not reach the next step (or submit, for the
	 * last); null when none reached it.
	 */
	steps: z.array(
		z.object({
			id: z.string(),
			kind: z.enum(['page', 'question']),
			label: z.string(),
			/** 1-based page the step is on. */
			page: z.number().int(),
			reached: z.number().int(),
			dropOff: z.number().nullable(),
		}),
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

/** One answer in full (GET …/submissions/{submissionId}). */
export const submissionDetailSchema = submissionSchema.extend({
	/** Every attempt at the workspace write, oldest first. */
	attempts: z.array(deliveryAttemptSchema),
	/** The files of its file and signature answers, with short-lived links to open them. */
	files: z.array(
		z.object({
			fieldId: z.string(),
			name: z.string(),
			contentType: z.string(),
			byteSize: z.number().int(),
			url: z.string(),
		}),
	),
	/** Its deliveries to the form's webhooks, with every attempt. */
	webhooks: z.array(webhookDeliverySchema.extend({ url: z.string() })),
})
export type SubmissionDetail = z.infer<typeof submissionDetailSchema>

/** The URL parameter that prefills a field: its own `param`, or its label in lowercase with underscores. */
export function prefillParamOf(field: { label: string; param?: string | null }): string {
	return field.param || parameterName(field.label)
}
