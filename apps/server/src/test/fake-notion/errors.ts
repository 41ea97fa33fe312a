/** An error the fake answers in Notion's wire shape: `{object:'error', status, code, message, request_id}`. */
export class NotionApiError extends Error {
	status: number
	code: NotionErrorCode
	additionalData: Record<string, unknown> | undefined
	headers: Record<string, string>
	/** Extra top-level body fields, e.g. the OAuth `error`/`error_description` pair. */
	extraBody: Record<string, unknown>

	constructor(
		status: number,
		code: NotionErrorCode,
		message: string,
		options: {
			additionalData?: Record<string, unknown>
			headers?: Record<string, string>
			extraBody?: Record<string, unknown>
		} = {},
	) {
		super(message)
		this.status = status
		this.code = code
		this.additionalData = options.additionalData
		this.headers = options.headers ?? {}
		this.extraBody = options.extraBody ?? {}
	}
}

export function validationError(message: string): NotionApiError {
	return new NotionApiError(400, 'validation_error', message)
}

export function notFound(kind: string, id: string): NotionApiError {
	return new NotionApiError(
		404,
		'object_not_found',
		`Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
	)
}

/**
 * The `code`s Notion answers with (developers.notion.com/reference/status-codes, plus `service_overload` on 529,
 * which the SDK knows as APIErrorCode.ServiceOverload). The fake answers no other code, so a test cannot come to
 * rely on one Notion never sends; `invalid_grant` is also OAuth's own `error` value.
 */
export const notionErrorCodes = [
	'invalid_json',
	'invalid_request_url',
	'invalid_request',
	'invalid_grant',
	'validation_error',
	'missing_version',
	'unauthorized',
	'restricted_resource',
	'object_not_found',
	'conflict_error',
	'rate_limited',
	'internal_server_error',
	'service_unavailable',
	'database_connection_unavailable',
	'gateway_timeout',
	'service_overload',
] as const
export type NotionErrorCode = (typeof notionErrorCodes)[number]

export function isNotionErrorCode(code: string): code is NotionErrorCode {
	return (notionErrorCodes as readonly string[]).includes(code)
}

/**
 * The code Notion answers with each status, or null for a status whose answer is not a Notion JSON error: a 502
 * comes from the proxy in front of Notion as an HTML page.
 */
export function codeForStatus(status: number): NotionErrorCode | null {
	switch (status) {
		case 400:
			return 'invalid_request'
		case 401:
			return 'unauthorized'
		case 403:
			return 'restricted_resource'
		case 404:
			return 'object_not_found'
		case 409:
			return 'conflict_error'
		case 429:
			return 'rate_limited'
		case 502:
			return null
		case 503:
			return 'service_unavailable'
		case 504:
			return 'gateway_timeout'
		case 529:
			return 'service_overload'
		default:
			return 'internal_server_error'
	}
}

export function errorBody(error: NotionApiError, requestId: string): Record<string, unknown> {
	return {
		object: 'error',
		status: error.status,
		code: error.code,
		message: error.message,
		request_id: requestId,
		...(error.additionalData ? { additional_data: error.additionalData } : {}),
		...error.extraBody,
	}
}
