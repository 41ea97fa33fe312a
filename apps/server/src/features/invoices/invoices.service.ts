// Invoice settings profiles: the companies an organization bills from. Every organization with
// profiles has exactly one default (the first one made, until another is chosen). Members read
// them; owners and admins change them. Another organization's profile reads as 404.

import { randomUUID } from 'node:crypto'
import {
	type createInvoiceProfileSchema,
	type InvoiceProfile,
	invoiceProfileDefaults,
	type updateInvoiceProfileSchema,
} from '@blocksmith/contracts/invoices.ts'
import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm'
import type { z } from 'zod'
import { organizations } from '#src/core/auth/auth.schema.ts'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import { signedDownloadUrl } from '#src/core/uploads/uploads.service.ts'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { dayOf, hasIssuedNumbers, previewNumbers } from './invoices.numbering.ts'
import { canChangeSettings, invoiceRefusals } from './invoices.policy.ts'
import { invoiceProfiles, type ProfileDetails, type ProfileRecord } from './invoices.schema.ts'
import { saveTaxRates, taxRatesOf } from './invoices.tax-rates.ts'

type CreateInput = z.output<typeof createInvoiceProfileSchema>
type UpdateInput = z.output<typeof updateInvoiceProfileSchema>

/** The logo goes into PDFs, which embed PNG and JPEG. */
const logoTypes = ['image/png', 'image/jpeg']

async function toProfiles(ctx: InvoicesCtx, records: ProfileRecord[]): Promise<InvoiceProfile[]> {
	const ids = records.map((record) => record.id)
	const rates = await taxRatesOf(ctx.db, ctx.orgId, ids)
	const next = await previewNumbers(
		ctx.db,
		records.map((record) => ({ id: record.id, numbering: record.details.numbering })),
		dayOf(ctx.now()),
	)
	const logoIds = records.flatMap((record) => (record.logoBlobId ? [record.logoBlobId] : []))
	const logoRows =
		logoIds.length === 0
			? []
			: await ctx.db
					.select({ id: blobs.id, contentType: blobs.contentType })
					.from(blobs)
					.where(and(inArray(blobs.id, logoIds), eq(blobs.organizationId, ctx.orgId)))
	const logos = new Map(logoRows.map((blob) => [blob.id, blob.contentType]))
	return records.map((record) => {
		const contentType = record.logoBlobId ? logos.get(record.logoBlobId) : undefined
		return {
			...record.details,
			id: record.id,
			name: record.name,
			legalName: record.legalName,
			isDefault: record.isDefault,
			logoBlobId: record.logoBlobId,
			taxRates: rates.get(record.id) ?? [],
			logo:
				record.logoBlobId && contentType
					? { blobId: record.logoBlobId, url: signedDownloadUrl(ctx, record.logoBlobId), contentType }
					: null,
			nextNumbers: found(next.get(record.id)),
			createdAt: record.createdAt.toISOString(),
			updatedAt: record.updatedAt.toISOString(),
		}
	})
}

async function profileRecord(ctx: InvoicesCtx, id: string): Promise<ProfileRecord> {
	const [record] = await ctx.db
		.select()
		.from(invoiceProfiles)
		.where(and(eq(invoiceProfiles.id, id), eq(invoiceProfiles.organizationId, ctx.orgId)))
	return found(record, 'No such invoice settings profile.')
}

function assertCanChange(ctx: InvoicesCtx): void {
	if (!canChangeSettings(ctx.role)) {
		throw new AppError('FORBIDDEN', { detail: invoiceRefusals.changeSettings })
	}
}

/** The logo must be an uploaded PNG or JPEG of the organization's. */
async function checkLogo(ctx: InvoicesCtx, blobId: string | null | undefined): Promise<void> {
	if (!blobId) {
		return
	}
	const [blob] = await ctx.db
		.select({ contentType: blobs.contentType, status: blobs.status, scope: blobs.scope })
		.from(blobs)
		.where(and(eq(blobs.id, blobId), eq(blobs.organizationId, ctx.orgId)))
	// A visitor's upload to a form (scoped) is not the team's to use.
	if (blob?.status !== 'uploaded' || blob.scope !== null) {
		throw new AppError('VALIDATION_FAILED', { errors: [{ field: 'logoBlobId', message: 'Upload the logo first.' }] })
	}
	if (!logoTypes.includes(blob.contentType)) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'logoBlobId', message: 'Use a PNG or JPEG image: invoices are PDFs, which embed those.' }],
		})
	}
}

/** Serialises changes to one organization's profiles, so "exactly one default" holds under concurrency. */
async function lockOrganization(tx: Db, orgId: string): Promise<void> {
	await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId)).for('update')
}

export async function listProfiles(ctx: InvoicesCtx): Promise<InvoiceProfile[]> {
	const records = await ctx.db
		.select()
		.from(invoiceProfiles)
		.where(eq(invoiceProfiles.organizationId, ctx.orgId))
		.orderBy(desc(invoiceProfiles.isDefault), asc(invoiceProfiles.createdAt), asc(invoiceProfiles.id))
	return toProfiles(ctx, records)
}

export async function getProfile(ctx: InvoicesCtx, id: string): Promise<InvoiceProfile> {
	const [profile] = await toProfiles(ctx, [await profileRecord(ctx, id)])
	return found(profile)
}

/** The details with the fields sent put in their place (each field whole). */
function detailsOf(changes: Partial<ProfileDetails>, base: ProfileDetails): ProfileDetails {
	const sent = Object.entries(changes).filter(([, value]) => value !== undefined)
	return { ...base, ...Object.fromEntries(sent) }
}

export async function createProfile(ctx: InvoicesCtx, input: CreateInput): Promise<InvoiceProfile> {
	assertCanChange(ctx)
	await checkLogo(ctx, input.logoBlobId)
	const { name, legalName, isDefault, logoBlobId, taxRates, ...rest } = input
	const defaults = invoiceProfileDefaults as unknown as Omit<ProfileDetails, 'address'>
	const details = detailsOf(rest, { ...defaults, address: input.address })
	const id = randomUUID()
	const now = ctx.now()
	await ctx.db.transaction(async (tx) => {
		await lockOrganization(tx, ctx.orgId)
		const [other] = await tx
			.select({ id: invoiceProfiles.id })
			.from(invoiceProfiles)
			.where(eq(invoiceProfiles.organizationId, ctx.orgId))
			.limit(1)
		// The first profile is the default; a later one when asked to be.
		const becomesDefault = isDefault === true || other === undefined
		if (becomesDefault) {
			await tx
				.update(invoiceProfiles)
				.set({ isDefault: false })
				.where(and(eq(invoiceProfiles.organizationId, ctx.orgId), eq(invoiceProfiles.isDefault, true)))
		}
		await tx.insert(invoiceProfiles).values({
			id,
			organizationId: ctx.orgId,
			name: name ?? legalName,
			legalName,
			isDefault: becomesDefault,
			logoBlobId: logoBlobId ?? null,
			details,
			createdBy: ctx.userId,
			createdAt: now,
			updatedAt: now,
		})
		await saveTaxRates(tx, { orgId: ctx.orgId, profileId: id, newId: randomUUID, now }, taxRates ?? [])
	})
	return getProfile(ctx, id)
}

export async function updateProfile(ctx: InvoicesCtx, id: string, input: UpdateInput): Promise<InvoiceProfile> {
	const record = await profileRecord(ctx, id)
	assertCanChange(ctx)
	if (input.isDefault === false && record.isDefault) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [
				{ field: 'isDefault', message: 'One profile is always the default: make another one the default instead.' },
			],
		})
	}
	await checkLogo(ctx, input.logoBlobId)
	const { name, legalName, isDefault, logoBlobId, taxRates, ...rest } = input
	const now = ctx.now()
	await ctx.db.transaction(async (tx) => {
		await lockOrganization(tx, ctx.orgId)
		if (isDefault === true && !record.isDefault) {
			await tx
				.update(invoiceProfiles)
				.set({ isDefault: false })
				.where(and(eq(invoiceProfiles.organizationId, ctx.orgId), eq(invoiceProfiles.isDefault, true)))
		}
		await tx
			.update(invoiceProfiles)
			.set({
				...(name === undefined ? {} : { name }),
				...(legalName === undefined ? {} : { legalName }),
				...(isDefault === true ? { isDefault } : {}),
				...(logoBlobId === undefined ? {} : { logoBlobId }),
				details: detailsOf(rest, record.details),
				updatedAt: now,
			})
			.where(and(eq(invoiceProfiles.id, id), eq(invoiceProfiles.organizationId, ctx.orgId)))
		if (taxRates !== undefined) {
			await saveTaxRates(tx, { orgId: ctx.orgId, profileId: id, newId: randomUUID, now }, taxRates)
		}
	})
	return getProfile(ctx, id)
}

/** Deletes a profile no document was numbered from; the oldest other one becomes the default if it was. */
export async function deleteProfile(ctx: InvoicesCtx, id: string): Promise<void> {
	const record = await profileRecord(ctx, id)
	assertCanChange(ctx)
	await ctx.db.transaction(async (tx) => {
		await lockOrganization(tx, ctx.orgId)
		if (await hasIssuedNumbers(tx, id)) {
			throw new AppError('CONFLICT', { detail: invoiceRefusals.deleteNumbered })
		}
		await tx
			.delete(invoiceProfiles)
			.where(and(eq(invoiceProfiles.id, id), eq(invoiceProfiles.organizationId, ctx.orgId)))
		if (record.isDefault) {
			const [next] = await tx
				.select({ id: invoiceProfiles.id })
				.from(invoiceProfiles)
				.where(and(eq(invoiceProfiles.organizationId, ctx.orgId), ne(invoiceProfiles.id, id)))
				.orderBy(asc(invoiceProfiles.createdAt), asc(invoiceProfiles.id))
				.limit(1)
			if (next) {
				await tx.update(invoiceProfiles).set({ isDefault: true }).where(eq(invoiceProfiles.id, next.id))
			}
		}
	})
}
