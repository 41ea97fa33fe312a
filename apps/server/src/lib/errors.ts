import { type ErrorCode, errorStatusByCode, type FieldError, type Problem } from '@blocksmith/contracts/errors.ts'
import type { LimitReached } from '@blocksmith/contracts/subscriptions.ts'
import type { z } from 'zod'

const defaultDetail: Record<ErrorCode, string> = {
	VALIDATION_FAILED: 'Some fields are invalid.',
	MALFORMED_JSON: 'The request body is not valid JSON.',
	INVALID_TOKEN: 'This link or token is invalid or has expired.',
	UNAUTHENTICATED: 'Sign in to continue.',
	INVALID_CREDENTIALS: 'The e-mail address or password is wrong.',
	FORBIDDEN: 'Your role does not allow this.',
	NO_ORGANIZATION: 'Your account does not belong to an organization.',
	EMAIL_NOT_VERIFIED: 'Confirm your e-mail address first.',
	NOT_FOUND: 'Not found.',
	METHOD_NOT_ALLOWED: 'This method is not allowed here.',
	CONFLICT: 'This conflicts with the current state.',
	PLAN_LIMIT_REACHED: "Your plan's limit is reached. Upgrade to add more.",
	SUBSCRIPTION_INACTIVE: 'The subscription is not active, so nothing new can be made.',
	SUBSCRIPTION_STATE: "The subscription's state does not allow this.",
	UNAVAILABLE: 'This page is unavailable right now.',
	EMAIL_TAKEN: 'An account with this e-mail address already exists.',
	LAST_OWNER: 'An organization needs at least one owner.',
	FORM_CLOSED: 'This form is closed and no longer accepts answers.',
	FORM_DELETED: 'This form was deleted by its owner.',
	ORGANIZATION_DELETING: 'This organization is scheduled for deletion. An owner can restore it, or export its data.',
	SOLE_OWNER: 'You are the only owner of an organization that has other members. Make one of them an owner first.',
	REAUTHENTICATE: 'Sign in again to confirm.',
	EXPORT_EXPIRED: 'This download link has expired. Start a new export in Settings.',
	ALREADY_RESPONDED: 'You have already answered this form.',
	PASSWORD_REQUIRED: 'This form is password-protected. Enter the password to open it.',
	WRONG_PASSWORD: 'That password is not right.',
	TOO_FAST: 'That was quicker than a person can fill in this form. Wait a moment and send it again.',
	INVITATION_UNAVAILABLE: 'This invitation was accepted, revoked or has expired.',
	PAYLOAD_TOO_LARGE: 'The request body is too large.',
	UNSUPPORTED_MEDIA_TYPE: 'This content type is not accepted here.',
	UPLOAD_MISMATCH: 'The uploaded file does not match what was announced.',
	RATE_LIMITED: 'Too many requests. Try again later.',
	INTERNAL: 'Something went wrong on our side. It has been logged.',
	SERVICE_UNAVAILABLE: 'The service is not available right now.',
}

type AppErrorOptions = {
	/** Shown to the user; defaults to the code's generic sentence. */
	detail?: string
	/** For the log only, never sent. */
	cause?: unknown
	errors?: FieldError[]
	/** Seconds, for RATE_LIMITED. */
	retryAfter?: number
	/** For PLAN_LIMIT_REACHED. */
	limit?: LimitReached
}

/** The one error type services throw; `toProblem` turns it into a response. */
export class AppError extends Error {
	readonly code: ErrorCode
	readonly detail: string
	readonly errors: FieldError[] | undefined
	readonly retryAfter: number | undefined
	readonly limit: LimitReached | undefined

	constructor(code: ErrorCode, options: AppErrorOptions = {}) {
		super(options.detail ?? defaultDetail[code], { cause: options.cause })
		this.name = 'AppError'
		this.code = code
		this.detail = options.detail ?? defaultDetail[code]
		this.errors = options.errors
		this.retryAfter = options.retryAfter
		this.limit = options.limit
	}

	get status(): number {
		return errorStatusByCode[this.code]
	}
}

/** A VALIDATION_FAILED error listing zod's issues, then any other field errors found alongside. */
export function validationError(issues: readonly z.core.$ZodIssue[], moreErrors: FieldError[] = []): AppError {
	const errors = issues.map((issue) => ({
		field: issue.path.map(String).join('.'),
		message: issue.message,
	}))
	return new AppError('VALIDATION_FAILED', { errors: [...errors, ...moreErrors] })
}

export function toProblem(error: AppError, requestId: string | undefined, instance: string): Problem {
	return {
		type: `/problems/${error.code.toLowerCase().replaceAll('_', '-')}`,
		title: titleOf(error.code),
		status: error.status,
		detail: error.detail,
		instance,
		code: error.code,
		...(requestId ? { requestId } : {}),
		...(error.errors ? { errors: error.errors } : {}),
		...(error.limit ? { limit: error.limit } : {}),
	}
}

function titleOf(code: ErrorCode): string {
	const words = code.toLowerCase().replaceAll('_', ' ')
	return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Resolve a resource or report it missing: the caller never learns whether it exists elsewhere. */
export function found<T>(value: T | undefined | null, what = 'Not found.'): T {
	if (value === undefined || value === null) {
		throw new AppError('NOT_FOUND', { detail: what })
	}
	return value
}
