import type { ErrorCode } from '@blocksmith/contracts/errors.ts'
import { AppError } from '#src/lib/errors.ts'

// better-auth answers with { code, message } and its own codes; the API speaks problem+json
// with ours. This is the one place that translates.

const codeMap: Record<string, ErrorCode> = {
	INVALID_EMAIL_OR_PASSWORD: 'INVALID_CREDENTIALS',
	INVALID_PASSWORD: 'INVALID_CREDENTIALS',
	USER_ALREADY_EXISTS: 'EMAIL_TAKEN',
	USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'EMAIL_TAKEN',
	INVALID_TOKEN: 'INVALID_TOKEN',
	TOKEN_EXPIRED: 'INVALID_TOKEN',
	EMAIL_NOT_VERIFIED: 'EMAIL_NOT_VERIFIED',
	YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: 'LAST_OWNER',
	YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: 'LAST_OWNER',
	USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: 'CONFLICT',
	USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: 'CONFLICT',
	ORGANIZATION_SLUG_ALREADY_TAKEN: 'CONFLICT',
	INVITATION_NOT_FOUND: 'INVITATION_UNAVAILABLE',
	MEMBER_NOT_FOUND: 'NOT_FOUND',
	ORGANIZATION_NOT_FOUND: 'NOT_FOUND',
	USER_NOT_FOUND: 'NOT_FOUND',
	SESSION_NOT_FOUND: 'NOT_FOUND',
}

const fieldByCode: Record<string, string> = {
	PASSWORD_TOO_SHORT: 'password',
	PASSWORD_TOO_LONG: 'password',
	INVALID_EMAIL: 'email',
}

function codeForStatus(status: number): ErrorCode {
	if (status === 401) {
		return 'UNAUTHENTICATED'
	}
	if (status === 403) {
		return 'FORBIDDEN'
	}
	if (status === 404) {
		return 'NOT_FOUND'
	}
	if (status === 409) {
		return 'CONFLICT'
	}
	if (status === 413) {
		return 'PAYLOAD_TOO_LARGE'
	}
	if (status === 415) {
		return 'UNSUPPORTED_MEDIA_TYPE'
	}
	if (status === 429) {
		return 'RATE_LIMITED'
	}
	return status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED'
}

export function fromAuthError(status: number, body: { code?: unknown; message?: unknown } | undefined): AppError {
	const authCode = typeof body?.code === 'string' ? body.code : ''
	const message = typeof body?.message === 'string' ? body.message : undefined
	const field = fieldByCode[authCode]
	if (field) {
		return new AppError('VALIDATION_FAILED', { errors: [{ field, message: message ?? 'Invalid value.' }] })
	}
	if (authCode.startsWith('YOU_ARE_NOT_ALLOWED') || authCode === 'YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION') {
		return new AppError('FORBIDDEN', message ? { detail: message } : {})
	}
	const code = codeMap[authCode] ?? codeForStatus(status)
	// Only client-error messages are passed on; a 5xx message could describe internals.
	const detail = code !== 'INTERNAL' && message && !codeMap[authCode] ? message : undefined
	return new AppError(code, detail ? { detail } : {})
}
