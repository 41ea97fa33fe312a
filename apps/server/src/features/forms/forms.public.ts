import {
	type FormField,
	type FormLimits,
	formLayoutSchema,
	formLimitsSchema,
	type PublicField,
	type PublicForm,
	type UnlockResult,
} from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { verifyPassword } from 'better-auth/crypto'
import { and, count, eq, inArray, isNull } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import { enforceRateLimit, type RateLimitRule } from '#src/lib/rate-limit.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import type { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import { choicesOf } from './forms.answers-kinds.ts'
import type { FormsDeps } from './forms.deps.ts'
import { fieldAsset, type PageAsset, resolvePageImage } from './forms.head.ts'
import { publicFormQuery } from './forms.public-query.ts'
import { formSlugs, formSubmissions, forms } from './forms.schema.ts'
import { type FormRecord, uuidPattern } from './forms.service.ts'
import { publicTheme, themeOf } from './forms.theme.ts'

// The public side of a form: its page data, unlocking and its images. Submissions are taken in
// forms.submit.ts.

/** A form's database as the public pages and answers read it (`publicFormQuery`). */
export type PublicDatabase = Pick<
	typeof workspaceDatabases.$inferSelect,
	'id' | 'organizationId' | 'workspaceId' | 'properties'
>

/** Explicit limits on anonymous traffic (RATE_LIMITS=false turns them off for load tests). */
export const formLimits = {
	/** Submissions from one address to one form. */
	submitPerIp: { limit: 30, windowSeconds: 10 * 60 },
	/** Submissions to one form from everyone: a flood is cut off, the workspace is not. */
	submitPerForm: { limit: 600, windowSeconds: 60 },
	/** Password attempts from one address on one form. */
	unlockPerIp: { limit: 10, windowSeconds: 15 * 60 },
	/** How long an unlock token opens the form. */
	unlockSeconds: 2 * 60 * 60,
} satisfies Record<string, RateLimitRule | number>

/**
 * A form as visitors reach it, by id or by any slug it has had. Unknown and unpublished forms
 * read as 404 (visitors never learn a draft exists); deleted ones as 410.
 */
export async function findPublicForm(
	deps: FormsDeps,
	idOrSlug: string,
	options: { withWebhooks?: boolean } = {},
): Promise<{ form: FormRecord; database: PublicDatabase | null; isOldSlug: boolean; hasWebhooks: boolean }> {
	let formId = idOrSlug
	if (!uuidPattern.test(idOrSlug)) {
		const [slug] = await deps.db
			.select({ formId: formSlugs.formId })
			.from(formSlugs)
			.where(eq(formSlugs.slug, idOrSlug.toLowerCase()))
		if (!slug) {
			throw notPublished()
		}
		formId = slug.formId
	}
	const [row] = await publicFormQuery(deps.db, Boolean(options.withWebhooks)).execute({ id: formId.toLowerCase() })
	if (!row) {
		throw notPublished()
	}
	if (row.form.deletedAt) {
		throw new AppError('FORM_DELETED')
	}
	if (!row.form.published) {
		throw notPublished()
	}
	// A paused, past-due or canceled subscription stops the organization's public pages, answers
	// included (its owner stopped everything); visitors read a neutral message, never billing's.
	if (!(await deps.subscriptions.isAvailable(row.form.organizationId))) {
		throw new AppError('UNAVAILABLE')
	}
	const isOldSlug = !uuidPattern.test(idOrSlug) && row.form.slug !== idOrSlug.toLowerCase()
	return { form: row.form, database: row.database, isOldSlug, hasWebhooks: row.hasWebhooks }
}

function notPublished(): AppError {
	return new AppError('NOT_FOUND', {
		detail: 'This form is not published. It may have been unpublished, or the link may be wrong.',
	})
}

/**
 * The form's items as visitors see them: choices from the property's options or the question's
 * own, images resolved. The choice scope of a relation or people question stays on the server;
 * the page learns only whether it must search. The pictures of a protected form's image items
 * carry the unlock token the items were read with, as their route asks for it.
 */
async function publicFields(
	deps: FormsDeps,
	form: FormRecord,
	database: PublicDatabase | null,
	unlockToken: string | null,
): Promise<PublicField[]> {
	const imageToken = form.passwordHash === null ? null : unlockToken
	const properties = new Map<string, Property>((database?.properties ?? []).map((p) => [p.id, p]))
	return Promise.all(
		form.fields.map(async (field): Promise<PublicField> => {
			const { choiceScope, ...visible } = field
			const property = field.propertyId ? properties.get(field.propertyId) : undefined
			const options = hasOptions(field) ? choicesOf(field, property) : null
			return {
				...visible,
				...(options ? { options } : {}),
				...(field.kind === 'relation' ? { relationDatabaseId: property?.relationDatabaseId ?? null } : {}),
				// Only whether the visitor must search first: the scope's filter and ids stay here.
				...(field.kind === 'relation' || field.kind === 'people' ? { searchOnly: choiceScope?.mode === 'search' } : {}),
				...(field.kind === 'image'
					? { imageUrl: await resolvePageImage(deps, form, field.image ?? null, fieldAsset(field.id), imageToken) }
					: {}),
			}
		}),
	)
}

/** Kinds the page offers a list of choices for. */
function hasOptions(field: FormField): boolean {
	return ['select', 'multi_select', 'status', 'ranking'].includes(field.kind)
}

// ---- tokens -------------------------------------------------------------------------------

function renderToken(deps: FormsDeps, formId: string): string {
	const issuedAt = Date.now()
	return `${issuedAt}.${sign(deriveKey(deps.authSecret, 'form-render'), `${formId}.${issuedAt}`)}`
}

/** When the page was served, or null for a forged token. */
export function renderedAt(deps: FormsDeps, formId: string, token: string): number | null {
	const [issuedAt, signature] = token.split('.')
	if (!issuedAt || !signature || !/^\d+$/.test(issuedAt)) {
		return null
	}
	const isValid = isValidSignature(deriveKey(deps.authSecret, 'form-render'), `${formId}.${issuedAt}`, signature)
	return isValid ? Number(issuedAt) : null
}

function unlockToken(deps: FormsDeps, form: FormRecord): { token: string; expiresAt: Date } {
	const expires = Math.floor(Date.now() / 1000) + formLimits.unlockSeconds
	const message = `${form.id}.${form.passwordVersion}.${expires}`
	return {
		token: `${expires}.${sign(deriveKey(deps.authSecret, 'form-unlock'), message)}`,
		expiresAt: new Date(expires * 1000),
	}
}

/** Whether the token unlocks the form now: signed for this form and password, not expired. */
export function isUnlocked(deps: FormsDeps, form: FormRecord, token: string | undefined): boolean {
	if (form.passwordHash === null) {
		return true
	}
	const [expires, signature] = (token ?? '').split('.')
	if (!expires || !signature || !/^\d+$/.test(expires) || Number(expires) * 1000 < Date.now()) {
		return false
	}
	const message = `${form.id}.${form.passwordVersion}.${expires}`
	return isValidSignature(deriveKey(deps.authSecret, 'form-unlock'), message, signature)
}

// ---- page data ----------------------------------------------------------------------------

/**
 * What the public page gets. A protected form's items and logic come only with a valid unlock
 * token; without one the page has what the password screen shows.
 */
export async function publicFormData(
	deps: FormsDeps,
	form: FormRecord,
	database: PublicDatabase | null,
	unlockToken: string | null,
): Promise<PublicForm> {
	const passwordRequired = form.passwordHash !== null
	const isLocked = !isUnlocked(deps, form, unlockToken ?? undefined)
	const [pageThumbnail, favicon, theme, fields] = await Promise.all([
		resolvePageImage(deps, form, form.page.pageThumbnail, 'thumbnail'),
		resolvePageImage(deps, form, form.page.favicon, 'favicon'),
		publicTheme(deps, form),
		isLocked ? null : publicFields(deps, form, database, unlockToken),
	])
	// The plan's answers of the month used up close the form before anyone types. `submit` does
	// not ask, so an answer to a page served before is never lost.
	const closedMessage =
		(await closedMessageOf(deps, form, database)) ??
		((await deps.subscriptions.isMonthlyLimitReached(form.organizationId, 'submissionsPerMonth'))
			? form.closedMessage
			: null)
	return {
		id: form.id,
		slug: form.slug,
		tool: form.tool,
		name: form.name,
		pageTitle: form.page.pageTitle,
		pageDescription: form.page.pageDescription,
		pageThumbnail,
		favicon,
		extras: { indexable: form.page.extras.indexable },
		fields,
		logic: isLocked ? null : form.logic,
		layout: formLayoutSchema.parse(form.layout ?? {}),
		passwordRequired,
		acceptingResponses: closedMessage === null,
		closedMessage,
		oneResponsePer: limitsOf(form).oneResponsePer,
		confirmationMessage: form.confirmationMessage,
		submitLabel: form.submitLabel,
		theme,
		renderToken: renderToken(deps, form.id),
	}
}

export async function unlockForm(
	deps: FormsDeps,
	idOrSlug: string,
	password: string,
	clientIp: string,
): Promise<UnlockResult> {
	const { form, database } = await findPublicForm(deps, idOrSlug)
	if (form.passwordHash === null) {
		throw new AppError('CONFLICT', { detail: 'This form has no password.' })
	}
	if (deps.rateLimits) {
		await enforceRateLimit(deps.db, `form-unlock:${form.id}:${clientIp}`, formLimits.unlockPerIp)
	}
	if (!(await verifyPassword({ hash: form.passwordHash, password }))) {
		throw new AppError('WRONG_PASSWORD', { errors: [{ field: 'password', message: 'That password is not right.' }] })
	}
	const { token, expiresAt } = unlockToken(deps, form)
	return {
		unlockToken: token,
		expiresAt: expiresAt.toISOString(),
		form: await publicFormData(deps, form, database, token),
	}
}

export function limitsOf(form: FormRecord): FormLimits {
	return formLimitsSchema.parse(form.limits)
}

export async function countAnswers(db: Db, formId: string): Promise<number> {
	const [row] = await db
		.select({ count: count() })
		.from(formSubmissions)
		.where(and(eq(formSubmissions.formId, formId), eq(formSubmissions.spam, false)))
	return row?.count ?? 0
}

/** Why the form takes no answers now (its own message), or null while it is open. */
export async function closedMessageOf(deps: FormsDeps, form: FormRecord, database: PublicDatabase | null) {
	const limits = limitsOf(form)
	if (!form.acceptingResponses || !database) {
		return form.closedMessage
	}
	if (limits.closesAt && Date.parse(limits.closesAt) <= Date.now()) {
		return form.closedMessage
	}
	if (limits.maxSubmissions !== null && (await countAnswers(deps.db, form.id)) >= limits.maxSubmissions) {
		return limits.limitReachedMessage
	}
	return null
}

// ---- assets and scoped reads --------------------------------------------------------------

/**
 * A raster image of a published form: a page image (og:image, the favicon), the theme's logo or
 * cover, or an image item's picture (`fields/<fieldId>`). SVGs are never served as uploaded: the
 * page gets them inlined after sanitising (forms.head.ts).
 *
 * An image item is one of the form's items, which a protected form shows only once unlocked, so
 * its picture needs the unlock token as the items do (PASSWORD_REQUIRED before saying whether
 * there is one). The thumbnail, favicon, logo and cover stay public: link previews' crawlers
 * fetch the thumbnail without a password, and the password screen itself shows the others.
 */
export async function openPageAsset(deps: FormsDeps, idOrSlug: string, asset: PageAsset, unlockToken?: string) {
	const { form } = await findPublicForm(deps, idOrSlug)
	const isItem = asset.startsWith('fields/')
	if (isItem && !isUnlocked(deps, form, unlockToken)) {
		throw new AppError('PASSWORD_REQUIRED')
	}
	const image = assetImage(form, asset)
	if (!image || !('blobId' in image)) {
		throw new AppError('NOT_FOUND', { detail: 'This form has no such image.' })
	}
	const [blob] = await deps.db
		.select()
		.from(blobs)
		.where(and(eq(blobs.id, image.blobId), eq(blobs.organizationId, form.organizationId)))
	const file = blob?.status === 'uploaded' ? await deps.storage.get(blob.key) : null
	if (!blob || !file) {
		throw new AppError('NOT_FOUND', { detail: 'This form has no such image.' })
	}
	if (blob.contentType === 'image/svg+xml' || !blob.contentType.startsWith('image/')) {
		await file.body.cancel()
		throw new AppError('NOT_FOUND', { detail: 'This form has no such image.' })
	}
	// A protected form's picture is for who unlocked it: no shared cache keeps it.
	const isPrivate = isItem && form.passwordHash !== null
	return { contentType: blob.contentType, byteSize: file.byteSize, body: file.body, isPrivate }
}

function assetImage(form: FormRecord, asset: PageAsset) {
	if (asset.startsWith('fields/')) {
		const fieldId = asset.slice('fields/'.length)
		return form.fields.find((field) => field.id === fieldId && field.kind === 'image')?.image ?? null
	}
	const theme = themeOf(form.theme)
	const images = {
		thumbnail: form.page.pageThumbnail,
		favicon: form.page.favicon,
		logo: theme.logo,
		cover: theme.cover,
	}
	return Object.hasOwn(images, asset) ? images[asset as keyof typeof images] : null
}

/**
 * The organization's forms among `ids` (deleted ones left out), for modules that point at
 * forms (portals): id, name and database, nothing else of them.
 */
export async function formsOfOrganization(
	db: Db,
	organizationId: string,
	ids: string[],
): Promise<{ id: string; name: string; databaseId: string | null; isPublished: boolean }[]> {
	if (ids.length === 0) {
		return []
	}
	return db
		.select({ id: forms.id, name: forms.name, databaseId: forms.databaseId, isPublished: forms.published })
		.from(forms)
		.where(and(eq(forms.organizationId, organizationId), inArray(forms.id, ids), isNull(forms.deletedAt)))
}

export { createFormsExport } from './forms.export.ts'
