import { type NotionApiError, validationError } from './errors.ts'

export type JsonObject = Record<string, unknown>

const RICH_TEXT_CONTENT_LIMIT = 2000
const RICH_TEXT_ARRAY_LIMIT = 100
export const URL_LIMIT = 2000
const EQUATION_LIMIT = 1000

export function isRecord(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const defaultAnnotations = {
	bold: false,
	italic: false,
	strikethrough: false,
	underline: false,
	code: false,
	color: 'default',
}

/** A plain text rich text item in the response shape. */
export function textItem(content: string, link: string | null = null): JsonObject {
	return {
		type: 'text',
		text: { content, link: link === null ? null : { url: link } },
		annotations: { ...defaultAnnotations },
		plain_text: content,
		href: link,
	}
}

export function plainText(items: unknown): string {
	if (!Array.isArray(items)) {
		return ''
	}
	let text = ''
	for (const item of items) {
		if (isRecord(item) && typeof item.plain_text === 'string') {
			text += item.plain_text
		}
	}
	return text
}

function tooLong(path: string, limit: number, actual: number): NotionApiError {
	return validationError(`body failed validation: ${path}.length should be ≤ \`${limit}\`, instead was \`${actual}\`.`)
}

/** Checks a URL-ish string against Notion's length limit; `path` names the field in the message. */
export function checkLength(path: string, value: string, limit: number): void {
	if (value.length > limit) {
		throw tooLong(path, limit, value.length)
	}
}

function annotationsFrom(value: unknown): JsonObject {
	if (!isRecord(value)) {
		return { ...defaultAnnotations }
	}
	const result: JsonObject = { ...defaultAnnotations }
	for (const key of Object.keys(defaultAnnotations)) {
		if (value[key] !== undefined) {
			result[key] = value[key]
		}
	}
	return result
}

/** Turns a request rich text array into the response shape, enforcing Notion's size limits. */
export function richTextFromRequest(path: string, value: unknown): JsonObject[] {
	if (!Array.isArray(value)) {
		throw validationError(
			`body failed validation: ${path} should be an array, instead was \`${JSON.stringify(value)}\`.`,
		)
	}
	if (value.length > RICH_TEXT_ARRAY_LIMIT) {
		throw tooLong(path, RICH_TEXT_ARRAY_LIMIT, value.length)
	}
	return value.map((item, index) => {
		const itemPath = `${path}[${index}]`
		if (!isRecord(item)) {
			throw validationError(`body failed validation: ${itemPath} should be an object.`)
		}
		const annotations = annotationsFrom(item.annotations)
		if (isRecord(item.text)) {
			const content = item.text.content
			if (typeof content !== 'string') {
				throw validationError(`body failed validation: ${itemPath}.text.content should be a string.`)
			}
			checkLength(`${itemPath}.text.content`, content, RICH_TEXT_CONTENT_LIMIT)
			let link: string | null = null
			if (isRecord(item.text.link) && typeof item.text.link.url === 'string') {
				link = item.text.link.url
				checkLength(`${itemPath}.text.link.url`, link, URL_LIMIT)
			}
			return {
				type: 'text',
				text: { content, link: link === null ? null : { url: link } },
				annotations,
				plain_text: content,
				href: link,
			}
		}
		if (isRecord(item.equation)) {
			const expression = item.equation.expression
			if (typeof expression !== 'string') {
				throw validationError(`body failed validation: ${itemPath}.equation.expression should be a string.`)
			}
			checkLength(`${itemPath}.equation.expression`, expression, EQUATION_LIMIT)
			return { type: 'equation', equation: { expression }, annotations, plain_text: expression, href: null }
		}
		if (isRecord(item.mention)) {
			// Mentions are echoed back as given; the fake has no way to resolve their display text.
			return { type: 'mention', mention: item.mention, annotations, plain_text: '', href: null }
		}
		throw validationError(
			`body failed validation: ${itemPath} should be defined with one of \`text\`, \`mention\` or \`equation\`.`,
		)
	})
}
