import { type ParseDurationOptions, parseDuration } from '@blocksmith/contracts/time-duration.ts'
import { AppError } from '#src/lib/errors.ts'

// The server's side of a typed duration: the same parser the web runs under each timesheet cell
// (packages/contracts/src/time-duration.ts, where the accepted syntax is written down), with a
// bad value turned into the 400 that names the field, as every other validation error does.

/**
 * Whole seconds, or null for an empty cell; a VALIDATION_FAILED error naming `field`
 * (a dotted path such as `cells.3.duration`) when the text is not a duration.
 */
export function parseDurationField(
	field: string,
	input: string | null | undefined,
	options: ParseDurationOptions = {},
): number | null {
	if (input === null || input === undefined) {
		return null
	}
	const parsed = parseDuration(input, options)
	if (!parsed.ok) {
		throw new AppError('VALIDATION_FAILED', { errors: [{ field, message: parsed.message }] })
	}
	return parsed.seconds
}
