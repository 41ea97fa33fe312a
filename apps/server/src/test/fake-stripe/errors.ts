/**
 * Stripe's error wire shape, `{ error: { type, message, code?, param?, decline_code?, doc_url? } }`, and the
 * messages Stripe itself uses for the errors the fake can answer, so code that matches on them keeps working.
 */
export type StripeErrorType = 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error'

export class StripeApiError extends Error {
	status: number
	type: StripeErrorType
	code: string | undefined
	param: string | undefined
	declineCode: string | undefined

	constructor(
		status: number,
		message: string,
		options: { type?: StripeErrorType; code?: string; param?: string; declineCode?: string } = {},
	) {
		super(message)
		this.status = status
		this.type = options.type ?? 'invalid_request_error'
		this.code = options.code
		this.param = options.param
		this.declineCode = options.declineCode
	}

	body(): { error: Record<string, string> } {
		const error: Record<string, string> = { type: this.type, message: this.message }
		if (this.code) {
			error.code = this.code
			error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replaceAll('_', '-')}`
		}
		if (this.param) {
			error.param = this.param
		}
		if (this.declineCode) {
			error.decline_code = this.declineCode
		}
		return { error }
	}
}

const KINDS: Record<string, string> = {
	cus: 'customer',
	sub: 'subscription',
	sub_sched: 'subscription_schedule',
	si: 'subscription_item',
	price: 'price',
	prod: 'product',
	cs: 'checkout.session',
	in: 'invoice',
	pm: 'payment_method',
	bps: 'billing_portal.session',
	evt: 'event',
}

/** `No such subscription: 'sub_123'`: 404 for an id in the path, 400 for an id given as a parameter. */
export function resourceMissing(kind: keyof typeof KINDS | string, id: string, param = 'id'): StripeApiError {
	return new StripeApiError(param === 'id' ? 404 : 400, `No such ${KINDS[kind] ?? kind}: '${id}'`, {
		code: 'resource_missing',
		param,
	})
}

export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
	return new StripeApiError(400, message, {
		...(param === undefined ? {} : { param }),
		...(code === undefined ? {} : { code }),
	})
}

export function missingParam(param: string): StripeApiError {
	return invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing')
}

export function unknownParam(param: string): StripeApiError {
	return invalidRequest(`Received unknown parameter: ${param}`, param, 'parameter_unknown')
}

/** A real Stripe parameter the fake does not implement: loud, so a test never relies on it silently. */
export function unsupported(param: string, detail = ''): StripeApiError {
	return invalidRequest(
		`The fake Stripe does not implement ${param}${detail ? ` (${detail})` : ''}.`,
		param,
		'parameter_unknown',
	)
}

export function cardDeclined(): StripeApiError {
	return new StripeApiError(402, 'Your card was declined.', {
		type: 'card_error',
		code: 'card_declined',
		declineCode: 'generic_decline',
	})
}

export function authError(header: string | undefined): StripeApiError {
	if (!header) {
		return new StripeApiError(
			401,
			"You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
		)
	}
	const key = header.replace(/^(Bearer|Basic)\s+/i, '')
	return new StripeApiError(401, `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(4)}${key.slice(-4)}`, {
		code: 'api_key_invalid',
	})
}
