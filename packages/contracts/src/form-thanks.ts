// What a visitor sees after answering: the confirmation message with answers put in
// (`Thanks, {Name}!`), or a redirect to the form owner's page with the answers as parameters.
// Shared by the server (which answers the submission with both) and the builder's preview.

type ThanksField = { id: string; label: string }

/** An answer as text: lists joined, dates by their day (and end), yes/no for ticks, files by name. */
export function answerText(value: unknown): string {
	if (value === null || value === undefined) {
		return ''
	}
	if (Array.isArray(value)) {
		return value.map(answerText).join(', ')
	}
	if (typeof value === 'boolean') {
		return value ? 'Yes' : 'No'
	}
	if (typeof value === 'object' && 'start' in value) {
		const date = value as { start: unknown; end?: unknown }
		return date.end ? `${String(date.start)} → ${String(date.end)}` : String(date.start)
	}
	if (typeof value === 'object' && 'name' in value) {
		return String((value as { name: unknown }).name)
	}
	return String(value)
}

/**
 * `{Label}` becomes that field's answer (labels compared trimmed and case-insensitively); a
 * placeholder naming no field is left as written, so a typo shows rather than vanishes.
 * People and related rows are put in as the ids answered.
 */
export function fillPlaceholders(message: string, fields: ThanksField[], answers: Record<string, unknown>): string {
	const byLabel = new Map(fields.map((field) => [field.label.trim().toLowerCase(), field.id]))
	return message.replace(/\{([^{}]{1,200})\}/g, (placeholder, label: string) => {
		const fieldId = byLabel.get(label.trim().toLowerCase())
		return fieldId === undefined ? placeholder : answerText(answers[fieldId])
	})
}

/** Parameter names from labels: `Your e-mail` → `your_e_mail`. */
export function parameterName(label: string): string {
	return (
		label
			.normalize('NFKD')
			.replace(/[\u0300-\u036f]/g, '')
			.toLowerCase()
			.replace(/[^a-z0-9]+/g, '_')
			.replace(/^_+|_+$/g, '') || 'field'
	)
}

/**
 * Where to send the visitor: the owner's URL, with each answered field as a parameter when
 * asked for (placeholders in the URL are filled as well). Null for anything but http(s).
 */
export function redirectTarget(
	url: string,
	fields: ThanksField[],
	answers: Record<string, unknown>,
	withAnswers: boolean,
): string | null {
	let target: URL
	try {
		target = new URL(fillPlaceholders(url, fields, answers).replace(/\s/g, '%20'))
	} catch {
		return null
	}
	if (target.protocol !== 'http:' && target.protocol !== 'https:') {
		return null
	}
	if (withAnswers) {
		for (const field of fields) {
			const text = answerText(answers[field.id])
			if (text !== '') {
				target.searchParams.set(parameterName(field.label), text)
			}
		}
	}
	return target.toString()
}
