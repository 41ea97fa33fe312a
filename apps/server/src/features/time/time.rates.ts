// Billable rates of a time database: a currency, a default rate, rates per member and per
// project (ours, or read from a number property of the projects database, in major units).
// An entry's rate is its project's, else its person's, else the default; only billable entries
// earn (time.reports.ts). Rates are whole minor units per hour; a rate read from a property is
// converted with the currency's minor-unit digits in exact decimal arithmetic (never floats).

import type { FieldError } from '@blocksmith/contracts/errors.ts'
import { type TimeRates, type TimeRatesInput, timeRatesSchema } from '@blocksmith/contracts/time-reports.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { members } from '#src/core/auth/auth.schema.ts'
import { AppError } from '#src/lib/errors.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import type { TimeCtx, TimeDeps } from './time.deps.ts'
import { canChangeRates } from './time.policy.ts'
import { timeDatabases, timeEntries } from './time.schema.ts'
import { type SourceTarget, sourceTargetOf } from './time.source.ts'

/** Rates as used by a report: what applies to a project key, a person value, and everything else. */
export type RateTable = {
	currency: string
	/** By project key (a projects row id, or an option name). */
	projects: Record<string, number>
	/** By person value as rows store it (member id; Notion user id through the entries of ours). */
	people: Record<string, number>
	defaultRate: number | null
}

/** Digits after the decimal point of a currency's minor unit (EUR 2, JPY 0, BHD 3). */
export function minorDigits(currency: string): number {
	return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
}

const decimal = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

/**
 * A non-negative decimal in major units ("120.5", "1e3", as a JSON number is written) as whole
 * minor units, rounded half-up; null for anything else (negative, not a number, too large).
 */
export function majorToMinor(text: string, digits: number): number | null {
	const match = decimal.exec(text.trim())
	if (!match) {
		return null
	}
	const [, whole = '', fraction = '', exponent = '0'] = match
	// value = mantissa × 10^(scale): mantissa the digits without the point.
	const mantissa = BigInt(whole + fraction)
	const scale = Number(exponent) - fraction.length + digits
	if (Math.abs(scale) > 40) {
		return scale > 0 && mantissa !== 0n ? null : 0
	}
	let minor: bigint
	if (scale >= 0) {
		minor = mantissa * 10n ** BigInt(scale)
	} else {
		const divisor = 10n ** BigInt(-scale)
		minor = (mantissa * 2n + divisor) / (divisor * 2n)
	}
	return minor > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(minor)
}

/** The database's rates as saved (defaults when none: no amounts). */
export async function ratesOf(deps: TimeDeps, orgId: string, databaseId: string): Promise<TimeRates> {
	const [saved] = await deps.db
		.select({ rates: timeDatabases.rates })
		.from(timeDatabases)
		.where(and(eq(timeDatabases.organizationId, orgId), eq(timeDatabases.databaseId, databaseId)))
	return timeRatesSchema.parse(saved?.rates ?? {})
}

/** The projects database of the mapping's project relation, when there is one. */
function projectsDatabaseOf(target: SourceTarget): string | null {
	const project = target.properties.find((property) => property.id === target.mapping.project)
	return project?.type === 'relation' ? (project.relationDatabaseId ?? null) : null
}

/** The rates as a report applies them: project rates from the property overridden by ours, member rates by person value. */
export async function rateTableOf(deps: TimeDeps, target: SourceTarget, rates: TimeRates): Promise<RateTable> {
	const projects: Record<string, number> = {}
	const projectsDatabase = projectsDatabaseOf(target)
	if (rates.projectRateProperty && projectsDatabase) {
		const digits = minorDigits(rates.currency)
		const raw = sql<
			string | null
		>`(case when jsonb_typeof(${workspaceRows.values} -> ${rates.projectRateProperty}) = 'number'
			then ${workspaceRows.values} ->> ${rates.projectRateProperty} end)`
		const rows = await deps.db
			.select({ id: workspaceRows.id, rate: raw })
			.from(workspaceRows)
			.where(and(eq(workspaceRows.organizationId, target.orgId), eq(workspaceRows.databaseId, projectsDatabase)))
		for (const row of rows) {
			const minor = row.rate === null ? null : majorToMinor(String(row.rate), digits)
			if (minor !== null) {
				projects[row.id] = minor
			}
		}
	}
	for (const { project, rate } of rates.projects) {
		projects[project] = rate
	}
	const people: Record<string, number> = {}
	const byUser = new Map(rates.members.map((member) => [member.userId, member.rate]))
	if (byUser.size > 0) {
		// A Notion person is the member who tracked as them (the entries of ours name both).
		const refs = await deps.db
			.selectDistinct({ personRef: timeEntries.personRef, userId: timeEntries.userId })
			.from(timeEntries)
			.where(
				and(
					eq(timeEntries.organizationId, target.orgId),
					isNotNull(timeEntries.personRef),
					inArray(timeEntries.userId, [...byUser.keys()]),
				),
			)
		for (const ref of refs) {
			const rate = ref.userId === null ? undefined : byUser.get(ref.userId)
			if (ref.personRef && rate !== undefined) {
				people[ref.personRef] = rate
			}
		}
		for (const [userId, rate] of byUser) {
			people[userId] = rate
		}
	}
	return { currency: rates.currency, projects, people, defaultRate: rates.defaultRate }
}

/** Rates of a mapped database of the caller's organization in this tool (404 otherwise). */
export async function getRates(ctx: TimeCtx, tool: WorkspaceTool, databaseId: string): Promise<TimeRates> {
	const target = await sourceTargetOf(ctx, tool, databaseId)
	return ratesOf(ctx, ctx.orgId, target.databaseId)
}

/**
 * Saves the rates, each checked against the database: the rate property is a number of the
 * projects database, each project is one of its rows (or an option of the project select), each
 * member is a member of the organization. 400s name the field.
 */
export async function saveRates(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	databaseId: string,
	input: TimeRatesInput,
): Promise<TimeRates> {
	const target = await sourceTargetOf(ctx, tool, databaseId)
	if (!canChangeRates(ctx.role)) {
		throw new AppError('FORBIDDEN', { detail: 'Only an owner or admin can change rates. Ask one of them to do it.' })
	}
	const rates = timeRatesSchema.parse(input)
	const errors: FieldError[] = []
	const projectsDatabase = projectsDatabaseOf(target)
	const projectProperty = target.properties.find((property) => property.id === target.mapping.project)
	if (rates.projectRateProperty) {
		const property = target.projectProperties.find((candidate) => candidate.id === rates.projectRateProperty)
		if (!projectsDatabase) {
			errors.push({ field: 'projectRateProperty', message: 'The project is not a relation to a projects database.' })
		} else if (property?.type !== 'number') {
			errors.push({ field: 'projectRateProperty', message: 'Choose a number property of the projects database.' })
		}
	}
	if (rates.projects.length > 0) {
		const known = new Set<string>()
		if (projectsDatabase) {
			const rows = await ctx.db
				.select({ id: workspaceRows.id })
				.from(workspaceRows)
				.where(
					and(
						eq(workspaceRows.organizationId, ctx.orgId),
						eq(workspaceRows.databaseId, projectsDatabase),
						inArray(
							workspaceRows.id,
							rates.projects.map((entry) => entry.project),
						),
					),
				)
			for (const row of rows) {
				known.add(row.id)
			}
		} else if (projectProperty?.type === 'select') {
			for (const option of projectProperty.options ?? []) {
				known.add(option.name)
			}
		}
		rates.projects.forEach((entry, index) => {
			if (!known.has(entry.project)) {
				errors.push({ field: `projects.${index}.project`, message: 'No such project in this database.' })
			}
		})
	}
	if (rates.members.length > 0) {
		const found = await ctx.db
			.select({ userId: members.userId })
			.from(members)
			.where(
				and(
					eq(members.organizationId, ctx.orgId),
					inArray(
						members.userId,
						rates.members.map((member) => member.userId),
					),
				),
			)
		const ids = new Set(found.map((member) => member.userId))
		rates.members.forEach((member, index) => {
			if (!ids.has(member.userId)) {
				errors.push({ field: `members.${index}.userId`, message: 'Not a member of this organization.' })
			}
		})
	}
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', { detail: errors[0]?.message ?? 'Invalid rates.', errors })
	}
	await ctx.db
		.update(timeDatabases)
		.set({ rates, updatedAt: new Date() })
		.where(and(eq(timeDatabases.organizationId, ctx.orgId), eq(timeDatabases.databaseId, target.databaseId)))
	return rates
}
