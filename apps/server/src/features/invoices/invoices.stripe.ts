// The team's own Stripe account per settings profile: the account its invoices are paid into,
// never the product's billing account (decision 036). The secret key is checked against the
// API, a webhook endpoint for checkout.session.completed is created in that account, and the
// key and the endpoint's signing secret are kept sealed (lib/secrets.ts), like Notion tokens.

import { minorUnitsOf } from '@blocksmith/contracts/invoice-currencies.ts'
import type { connectStripeSchema, StripeAccount } from '@blocksmith/contracts/invoice-sending.ts'
import { and, eq } from 'drizzle-orm'
import Stripe from 'stripe'
import type { z } from 'zod'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { createSecretBox } from '#src/lib/secrets.ts'
import type { InvoicesCtx, InvoicesDeps } from './invoices.deps.ts'
import { invalid } from './invoices.documents.ts'
import { canChangeSettings, invoiceRefusals } from './invoices.policy.ts'
import { invoiceProfiles, invoiceStripeAccounts, type StripeAccountRecord } from './invoices.schema.ts'

type ConnectInput = z.output<typeof connectStripeSchema>

/** The official SDK with a team's key, pointed at `stripeApiBaseUrl` when set (the tests' fake Stripe). */
export function stripeClient(deps: Pick<InvoicesDeps, 'stripeApiBaseUrl'>, secretKey: string): Stripe {
	const base = deps.stripeApiBaseUrl ? new URL(deps.stripeApiBaseUrl) : null
	return new Stripe(secretKey, {
		maxNetworkRetries: 2,
		timeout: 20_000,
		...(base
			? {
					host: base.hostname,
					port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
					protocol: base.protocol === 'https:' ? 'https' : 'http',
				}
			: {}),
	})
}

export function secretBox(deps: Pick<InvoicesDeps, 'authSecret'>) {
	return createSecretBox(deps.authSecret)
}

/** The connected account of a profile (any organization: the caller has checked whose it is). */
export async function stripeAccountOf(db: Db, profileId: string): Promise<StripeAccountRecord | null> {
	const [row] = await db.select().from(invoiceStripeAccounts).where(eq(invoiceStripeAccounts.profileId, profileId))
	return row ?? null
}

/**
 * Stripe's zero-decimal and three-decimal currencies (docs.stripe.com/currencies); every other
 * currency is two-decimal in Stripe's API, ISK included (whole krónur as multiples of 100).
 */
const stripeZeroDecimal = new Set('BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '))
const stripeThreeDecimal = new Set('BHD JOD KWD OMR TND'.split(' '))

/**
 * An amount in ISO 4217 minor units as Stripe's `unit_amount`, exactly, or null when Stripe
 * cannot charge it to the unit (MGA cents, a BHD amount whose last fils digit is not 0).
 */
export function stripeAmount(minor: number, currency: string): number | null {
	const iso = minorUnitsOf(currency)
	const stripe = stripeZeroDecimal.has(currency) ? 0 : stripeThreeDecimal.has(currency) ? 3 : 2
	let amount: number
	if (stripe >= iso) {
		amount = minor * 10 ** (stripe - iso)
	} else {
		const divisor = 10 ** (iso - stripe)
		if (minor % divisor !== 0) {
			return null
		}
		amount = minor / divisor
	}
	// Stripe's payment partners take three-decimal amounts only rounded to ten.
	if (stripe === 3 && amount % 10 !== 0) {
		return null
	}
	return Number.isSafeInteger(amount) ? amount : null
}

/** Stripe's amount back in ISO 4217 minor units (always exact: Stripe's unit is never finer than ISO's here but for ISK). */
export function minorFromStripe(amount: number, currency: string): number | null {
	const iso = minorUnitsOf(currency)
	const stripe = stripeZeroDecimal.has(currency) ? 0 : stripeThreeDecimal.has(currency) ? 3 : 2
	if (stripe <= iso) {
		return amount * 10 ** (iso - stripe)
	}
	const divisor = 10 ** (stripe - iso)
	return amount % divisor === 0 ? amount / divisor : null
}

function toAccount(row: StripeAccountRecord | null): StripeAccount {
	return {
		isConnected: row !== null,
		accountId: row?.accountId ?? null,
		accountName: row?.accountName ?? null,
		isLive: row?.isLive ?? false,
		connectedAt: row?.createdAt.toISOString() ?? null,
	}
}

async function ownProfile(ctx: InvoicesCtx, profileId: string): Promise<void> {
	const [profile] = await ctx.db
		.select({ id: invoiceProfiles.id })
		.from(invoiceProfiles)
		.where(and(eq(invoiceProfiles.id, profileId), eq(invoiceProfiles.organizationId, ctx.orgId)))
	found(profile, 'No such settings profile.')
}

function assertMayChange(ctx: InvoicesCtx): void {
	if (!canChangeSettings(ctx.role)) {
		throw new AppError('FORBIDDEN', { detail: invoiceRefusals.changeSettings })
	}
}

export async function getStripeAccount(ctx: InvoicesCtx, profileId: string): Promise<StripeAccount> {
	await ownProfile(ctx, profileId)
	return toAccount(await stripeAccountOf(ctx.db, profileId))
}

function stripeUnavailable(error: unknown): AppError {
	return new AppError('SERVICE_UNAVAILABLE', {
		detail: 'Stripe could not be reached or refused the request. Try again in a moment.',
		cause: error,
	})
}

/** Removes a webhook endpoint from the team's account; one already gone there is fine. */
async function deleteEndpoint(ctx: InvoicesCtx, row: StripeAccountRecord): Promise<void> {
	if (!row.webhookEndpointId) {
		return
	}
	try {
		const stripe = stripeClient(ctx, secretBox(ctx).open(row.secretKey))
		await stripe.webhookEndpoints.del(row.webhookEndpointId)
	} catch (error) {
		// A revoked key or an endpoint deleted in the dashboard must not keep the team connected here.
		ctx.log.warn({ err: error, profileId: row.profileId }, 'could not delete the Stripe webhook endpoint')
	}
}

/**
 * Connects (or replaces) the profile's account: the key must work (a wrong one is a 400 naming
 * `secretKey`); the endpoint is created before anything is stored, so a stored account always
 * has its webhook.
 */
export async function connectStripe(ctx: InvoicesCtx, profileId: string, input: ConnectInput): Promise<StripeAccount> {
	await ownProfile(ctx, profileId)
	assertMayChange(ctx)
	const stripe = stripeClient(ctx, input.secretKey)
	let account: Stripe.Account
	try {
		account = await stripe.accounts.retrieveCurrent()
	} catch (error) {
		if (
			error instanceof Stripe.errors.StripeAuthenticationError ||
			error instanceof Stripe.errors.StripePermissionError
		) {
			throw invalid([{ field: 'secretKey', message: 'Stripe does not accept this key. Copy the secret key again.' }])
		}
		throw stripeUnavailable(error)
	}
	let endpoint: Stripe.WebhookEndpoint
	try {
		endpoint = await stripe.webhookEndpoints.create({
			url: `${ctx.publicUrl}/api/invoices/stripe_webhook/${profileId}`,
			enabled_events: ['checkout.session.completed'],
			description: 'Blocksmith invoices: marks invoices paid online as paid',
			metadata: { profileId },
		})
	} catch (error) {
		if (error instanceof Stripe.errors.StripePermissionError) {
			throw invalid([
				{ field: 'secretKey', message: 'This key may not create webhook endpoints. Use a secret key, or allow it.' },
			])
		}
		throw stripeUnavailable(error)
	}
	const previous = await stripeAccountOf(ctx.db, profileId)
	const box = secretBox(ctx)
	const now = ctx.now()
	const values = {
		secretKey: box.seal(input.secretKey),
		webhookEndpointId: endpoint.id,
		webhookSecret: endpoint.secret ? box.seal(endpoint.secret) : null,
		accountId: account.id,
		accountName:
			account.settings?.dashboard?.display_name ?? account.business_profile?.name ?? account.email ?? account.id,
		isLive: input.secretKey.includes('_live_'),
		updatedAt: now,
	}
	const [row] = await ctx.db
		.insert(invoiceStripeAccounts)
		.values({ profileId, organizationId: ctx.orgId, ...values, createdAt: now })
		.onConflictDoUpdate({ target: invoiceStripeAccounts.profileId, set: { ...values, createdAt: now } })
		.returning()
	if (previous && previous.webhookEndpointId !== endpoint.id) {
		await deleteEndpoint(ctx, previous)
	}
	return toAccount(row ?? null)
}

export async function disconnectStripe(ctx: InvoicesCtx, profileId: string): Promise<StripeAccount> {
	await ownProfile(ctx, profileId)
	assertMayChange(ctx)
	const row = await stripeAccountOf(ctx.db, profileId)
	if (row) {
		await deleteEndpoint(ctx, row)
		await ctx.db.delete(invoiceStripeAccounts).where(eq(invoiceStripeAccounts.profileId, profileId))
	}
	return toAccount(null)
}
