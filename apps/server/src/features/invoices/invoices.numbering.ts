// Gapless numbers for finalized invoices and credit notes (decision 032). A number is taken
// inside the finalizing transaction: the sequence's counter row for the period is incremented
// with `insert … on conflict do update … returning`, which locks the row until that transaction
// ends, so concurrent finalizations get consecutive numbers one after the other, and a
// transaction that rolls back takes its increment with it (the next one gets the same number).
// Each number is also written to `invoice_numbers` (unique per profile): after the pattern or
// the reset changed, a number issued before is skipped rather than issued twice.

import { formatNumber, periodOf } from '@blocksmith/contracts/invoice-numbering.ts'
import type { Numbering } from '@blocksmith/contracts/invoices.ts'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { type DocumentKind, invoiceCounters, invoiceNumbers, invoiceProfiles } from './invoices.schema.ts'

export type IssuedNumber = { number: string; counter: number; period: string }

/** How many issued numbers one allocation may step over before it gives up (a sequence changed badly). */
const maxSkips = 10_000

const dayPattern = /^\d{4}-\d{2}-\d{2}$/

function sequenceOf(numbering: Numbering, kind: DocumentKind) {
	return kind === 'invoice' ? numbering.invoice : numbering.creditNote
}

/**
 * The next number of a profile's invoices or credit notes for a document issued on `issueDate`
 * (`YYYY-MM-DD`). Call it inside the transaction that finalizes the document: the number is the
 * document's once that transaction commits, and nobody else's; the counter stays locked until then.
 */
export async function nextNumber(
	tx: Db,
	orgId: string,
	profileId: string,
	kind: DocumentKind,
	issueDate: string,
): Promise<IssuedNumber> {
	if (!dayPattern.test(issueDate) || Number.isNaN(Date.parse(`${issueDate}T00:00:00Z`))) {
		throw new AppError('VALIDATION_FAILED', { errors: [{ field: 'issueDate', message: 'Use a date as YYYY-MM-DD.' }] })
	}
	const [profile] = await tx
		.select({ details: invoiceProfiles.details })
		.from(invoiceProfiles)
		.where(and(eq(invoiceProfiles.id, profileId), eq(invoiceProfiles.organizationId, orgId)))
	const { pattern, reset } = sequenceOf(found(profile, 'No such invoice settings profile.').details.numbering, kind)
	const period = periodOf(reset, issueDate)
	for (let step = 0; step <= maxSkips; step++) {
		const [counter] = await tx
			.insert(invoiceCounters)
			.values({ organizationId: orgId, profileId, kind, period, last: 1 })
			.onConflictDoUpdate({
				target: [invoiceCounters.profileId, invoiceCounters.kind, invoiceCounters.period],
				set: { last: sql`${invoiceCounters.last} + 1` },
			})
			.returning({ last: invoiceCounters.last })
		const last = found(counter).last
		const number = formatNumber(pattern, issueDate, last)
		const issued = await tx
			.insert(invoiceNumbers)
			.values({ organizationId: orgId, profileId, number, kind, period, counter: last })
			.onConflictDoNothing()
			.returning({ number: invoiceNumbers.number })
		if (issued.length > 0) {
			return { number, counter: last, period }
		}
	}
	throw new AppError('CONFLICT', {
		detail: 'The numbering pattern gives only numbers that were already issued. Change the pattern in the settings.',
	})
}

/** Today as a calendar day in UTC (`YYYY-MM-DD`). */
export function dayOf(instant: Date): string {
	return instant.toISOString().slice(0, 10)
}

/** How far past the counter a preview looks for a number not issued yet. */
const previewReach = 20

/**
 * The numbers the next invoice and credit note of each profile would get if issued on `day`
 * (a preview: one finalized meanwhile takes it). Like `nextNumber`, it steps over numbers
 * issued before the pattern or the reset changed.
 */
export async function previewNumbers(
	db: Db,
	profiles: { id: string; numbering: Numbering }[],
	day: string,
): Promise<Map<string, { invoice: string; creditNote: string }>> {
	if (profiles.length === 0) {
		return new Map()
	}
	const ids = profiles.map((profile) => profile.id)
	const counters = await db.select().from(invoiceCounters).where(inArray(invoiceCounters.profileId, ids))
	const candidatesOf = (profileId: string, numbering: Numbering, kind: DocumentKind) => {
		const { pattern, reset } = sequenceOf(numbering, kind)
		const period = periodOf(reset, day)
		const last =
			counters.find((row) => row.profileId === profileId && row.kind === kind && row.period === period)?.last ?? 0
		return Array.from({ length: previewReach }, (_, step) => formatNumber(pattern, day, last + 1 + step))
	}
	const candidates = profiles.map((profile) => ({
		id: profile.id,
		invoice: candidatesOf(profile.id, profile.numbering, 'invoice'),
		creditNote: candidatesOf(profile.id, profile.numbering, 'credit_note'),
	}))
	const issued = await db
		.select({ profileId: invoiceNumbers.profileId, number: invoiceNumbers.number })
		.from(invoiceNumbers)
		.where(
			and(
				inArray(invoiceNumbers.profileId, ids),
				inArray(
					invoiceNumbers.number,
					candidates.flatMap((profile) => [...profile.invoice, ...profile.creditNote]),
				),
			),
		)
	const taken = new Set(issued.map((row) => `${row.profileId} ${row.number}`))
	const firstFree = (profileId: string, numbers: string[]) =>
		numbers.find((number) => !taken.has(`${profileId} ${number}`)) ?? (numbers.at(-1) as string)
	return new Map(
		candidates.map((profile) => [
			profile.id,
			{ invoice: firstFree(profile.id, profile.invoice), creditNote: firstFree(profile.id, profile.creditNote) },
		]),
	)
}

/** Whether any document was numbered from the profile. */
export async function hasIssuedNumbers(db: Db, profileId: string): Promise<boolean> {
	const [row] = await db
		.select({ number: invoiceNumbers.number })
		.from(invoiceNumbers)
		.where(eq(invoiceNumbers.profileId, profileId))
		.limit(1)
	return row !== undefined
}
