/** An error the fake answers in Notion's wire shape: `{object:'error', status, code, message, request_id}`. */
export class NotionApiError extends Error {
	status: number
	code: string
	additionalData: Record<string, unknown> | undefined
	headers: Record<string, string>
	/** Extra top-level body fields, e.g. the OAuth `error`/`error_description` pair. */
	extraBody: Record<string, unknown>

	constructor(
		status: number,
		code: string,
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

/** Default codes for injected failures, matching what Notion answers with each status. */
export function codeForStatus(status: number): string {
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
			return 'bad_gateway'
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
