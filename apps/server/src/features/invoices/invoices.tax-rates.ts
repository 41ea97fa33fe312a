// Tax rates of a settings profile. They are saved as the profile's whole list: a rate sent with
// its id is changed, one without is added, one left out is retired (kept for what refers to it,
// never offered again). Every reference to a rate, from the list or from an invoice line, must
// be a rate of the same profile: anything else (another profile's, another organization's, an
// unknown id) is a 400 naming the field, so ids of other organizations cannot be probed.

import type { FieldError } from '@blocksmith/contracts/errors.ts'
import type { TaxRate, taxRateInputSchema, VatCategory } from '@blocksmith/contracts/invoices.ts'
import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import { invoiceTaxRates, type TaxRateRecord } from './invoices.schema.ts'

type TaxRateInput = z.output<typeof taxRateInputSchema>

function toTaxRate(record: TaxRateRecord): TaxRate {
	return {
		id: record.id,
		name: record.name,
		categoryCode: record.category as VatCategory,
		rate: record.rate,
		exemptionReason: record.exemptionReason,
		exemptionReasonCode: record.exemptionReasonCode,
		isDefault: record.isDefault,
	}
}

/** The rates in use of each profile, in their order. */
export async function taxRatesOf(db: Db, orgId: string, profileIds: string[]): Promise<Map<string, TaxRate[]>> {
	const byProfile = new Map(profileIds.map((id) => [id, [] as TaxRate[]]))
	if (profileIds.length === 0) {
		return byProfile
	}
	const rows = await db
		.select()
		.from(invoiceTaxRates)
		.where(
			and(
				eq(invoiceTaxRates.organizationId, orgId),
				inArray(invoiceTaxRates.profileId, profileIds),
				isNull(invoiceTaxRates.retiredAt),
			),
		)
		.orderBy(asc(invoiceTaxRates.position))
	for (const row of rows) {
		byProfile.get(row.profileId)?.push(toTaxRate(row))
	}
	return byProfile
}

/** Replaces a profile's list of rates (inside the caller's transaction); 400s name `taxRates.N.id`. */
export async function saveTaxRates(
	tx: Db,
	ids: { orgId: string; profileId: string; newId: () => string; now: Date },
	rates: TaxRateInput[],
): Promise<void> {
	const { orgId, profileId, now } = ids
	const existing = await tx
		.select({ id: invoiceTaxRates.id })
		.from(invoiceTaxRates)
		.where(and(eq(invoiceTaxRates.organizationId, orgId), eq(invoiceTaxRates.profileId, profileId)))
	const known = new Set(existing.map((row) => row.id))
	const errors: FieldError[] = []
	rates.forEach((rate, index) => {
		if (rate.id !== undefined && !known.has(rate.id)) {
			errors.push({
				field: `taxRates.${index}.id`,
				message: 'Not a tax rate of this profile. Leave the id out to add a rate.',
			})
		}
	})
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', { detail: errors[0]?.message, errors })
	}
	const kept = new Set<string>()
	for (const [position, rate] of rates.entries()) {
		const values = {
			name: rate.name,
			category: rate.categoryCode,
			rate: rate.rate,
			exemptionReason: rate.exemptionReason,
			exemptionReasonCode: rate.exemptionReasonCode,
			isDefault: rate.isDefault,
			position,
			retiredAt: null,
			updatedAt: now,
		}
		if (rate.id === undefined) {
			await tx.insert(invoiceTaxRates).values({ id: ids.newId(), organizationId: orgId, profileId, ...values })
		} else {
			kept.add(rate.id)
			await tx.update(invoiceTaxRates).set(values).where(eq(invoiceTaxRates.id, rate.id))
		}
	}
	const retired = [...known].filter((id) => !kept.has(id))
	if (retired.length > 0) {
		await tx
			.update(invoiceTaxRates)
			.set({ retiredAt: now, isDefault: false, updatedAt: now })
			.where(and(inArray(invoiceTaxRates.id, retired), isNull(invoiceTaxRates.retiredAt)))
	}
}

/**
 * The rates a document of the profile refers to, by id, each reference with the field it came
 * from (`lines.2.taxRateIds.0`). A rate that is not one in use of this profile (another
 * profile's or organization's, retired, unknown) is a 400 naming that field.
 */
export async function resolveTaxRates(
	db: Db,
	orgId: string,
	profileId: string,
	refs: { field: string; id: string }[],
): Promise<Map<string, TaxRate>> {
	const ids = [...new Set(refs.map((ref) => ref.id))]
	const rows =
		ids.length === 0
			? []
			: await db
					.select()
					.from(invoiceTaxRates)
					.where(
						and(
							eq(invoiceTaxRates.organizationId, orgId),
							eq(invoiceTaxRates.profileId, profileId),
							inArray(invoiceTaxRates.id, ids),
							isNull(invoiceTaxRates.retiredAt),
						),
					)
	const byId = new Map(rows.map((row) => [row.id, toTaxRate(row)]))
	const errors = refs
		.filter((ref) => !byId.has(ref.id))
		.map((ref) => ({ field: ref.field, message: 'Choose a tax rate of this invoice’s settings profile.' }))
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', { detail: errors[0]?.message, errors })
	}
	return byId
}
