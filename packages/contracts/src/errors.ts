import { z } from 'zod'
import { limitReachedSchema } from './limits.ts'

/**
 * The closed list of error codes the API answers with, and the HTTP status of each.
 * Server and web both read it: the server to pick a status, the web to decide what a
 * problem means (field errors, sign-in again, try later).
 */
export const errorStatusByCode = {
	/** A body, query or parameter failed its schema; `errors` lists the fields. */
	VALIDATION_FAILED: 400,
	/** The body is not parseable JSON. */
	MALFORMED_JSON: 400,
	/** A one-time token (reset, confirmation, upload) is unknown, used or expired. */
	INVALID_TOKEN: 400,
	/** No valid session or bearer token. */
	UNAUTHENTICATED: 401,
	/** Wrong e-mail or password. */
	INVALID_CREDENTIALS: 401,
	/** Signed in, but the role does not allow this action. */
	FORBIDDEN: 403,
	/** The account has no organization to work in. */
	NO_ORGANIZATION: 403,
	/** The e-mail address must be confirmed first. */
	EMAIL_NOT_VERIFIED: 403,
	/** Unknown path, or an object that does not exist in the caller's organization. */
	NOT_FOUND: 404,
	METHOD_NOT_ALLOWED: 405,
	/** The plan's limit is reached; `limit` names it, the usage and the plan. */
	PLAN_LIMIT_REACHED: 402,
	/** The organization's subscription is paused, past due or canceled: nothing new can be made. */
	SUBSCRIPTION_INACTIVE: 402,
	/** The subscription's state does not allow this action; `detail` says why. */
	SUBSCRIPTION_STATE: 409,
	/** A public page (form, chart, portal) whose organization's subscription is not active. */
	UNAVAILABLE: 409,
	/** The object exists but its state forbids the action (already uploaded, already a member, …). */
	CONFLICT: 409,
	/** An account with that e-mail address already exists. */
	EMAIL_TAKEN: 409,
	/** The organization would be left without an owner. */
	LAST_OWNER: 409,
	/** The form is published but no longer takes answers; `detail` is the form's own message. */
	FORM_CLOSED: 409,
	/** The invitation was accepted, revoked or has expired. */
	INVITATION_UNAVAILABLE: 410,
	/** The organization is scheduled for deletion: only restoring it and exporting its data are possible. */
	ORGANIZATION_DELETING: 409,
	/** The account is the only owner of an organization that has other members: transfer ownership first. */
	SOLE_OWNER: 409,
	/** Confirm with a fresh sign-in (an account without a password deleting itself). */
	REAUTHENTICATE: 403,
	/** The export's download link has expired; start a new export. */
	EXPORT_EXPIRED: 410,
	/** The form was deleted by its owner. */
	FORM_DELETED: 410,
	/** The form takes one answer per person, and this person has answered. */
	ALREADY_RESPONDED: 409,
	/** The form is password-protected: unlock it first (never 401, which means "sign in"). */
	PASSWORD_REQUIRED: 403,
	/** The form's password is wrong. */
	WRONG_PASSWORD: 403,
	/** The request body is larger than the limit for this path. */
	PAYLOAD_TOO_LARGE: 413,
	UNSUPPORTED_MEDIA_TYPE: 415,
	/** An uploaded file does not match what was announced (size, type or checksum). */
	UPLOAD_MISMATCH: 422,
	/** A form was sent back faster than a person can fill it in; send it again in a moment. */
	TOO_FAST: 422,
	/** Too many requests; `Retry-After` says when to try again. */
	RATE_LIMITED: 429,
	/** Unexpected failure; details are in the server log under the request id. */
	INTERNAL: 500,
	/** The server is starting or shutting down. */
	SERVICE_UNAVAILABLE: 503,
} as const

export type ErrorCode = keyof typeof errorStatusByCode

export const errorCodeSchema = z.enum(Object.keys(errorStatusByCode) as [ErrorCode, ...ErrorCode[]])

/** One field that failed validation; `field` is a dotted path such as `lines.0.quantity`. */
export const fieldErrorSchema = z.object({
	field: z.string(),
	message: z.string(),
})
export type FieldError = z.infer<typeof fieldErrorSchema>

/** RFC 9457 problem details, with our code, the request id and field errors. */
export const problemSchema = z.object({
	type: z.string(),
	title: z.string(),
	status: z.number().int(),
	detail: z.string(),
	instance: z.string().optional(),
	code: errorCodeSchema,
	requestId: z.string().optional(),
	errors: z.array(fieldErrorSchema).optional(),
	/** With PLAN_LIMIT_REACHED. */
	limit: limitReachedSchema.optional(),
})
export type Problem = z.infer<typeof problemSchema>
