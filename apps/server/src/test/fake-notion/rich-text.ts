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

/** What a mention needs from the workspace to be rendered as Notion renders it. */
export type MentionResolver = {
	/** The user object (as in `users/:id`), or undefined when there is no such user. */
	user: (id: string) => JsonObject | undefined
	page: (id: string) => { title: string; url: string } | undefined
	database: (id: string) => { title: string; url: string } | undefined
}

const templateMentionText: Record<string, string> = { today: '@Today', now: '@Now', me: '@Me' }

function idOf(value: unknown): string | undefined {
	return isRecord(value) && typeof value.id === 'string' ? value.id : undefined
}

/**
 * A mention in the response shape: `mention.type`, the object it points at, and the `plain_text` Notion shows
 * for it (a person's name with @, a page's or database's title, a date, a link's URL), `href` where Notion gives one.
 */
function mentionFromRequest(path: string, mention: unknown, resolve: MentionResolver): Omit<JsonObject, 'annotations'> {
	if (!isRecord(mention)) {
		throw validationError(`body failed validation: ${path}.mention should be an object.`)
	}
	const kinds = ['user', 'page', 'database', 'date', 'template_mention', 'link_preview']
	const type = typeof mention.type === 'string' ? mention.type : kinds.find((kind) => kind in mention)
	const invalid = (what: string) =>
		validationError(`body failed validation: ${path}.mention.${type ?? 'type'} ${what}.`)
	switch (type) {
		case 'user': {
			const id = idOf(mention.user)
			const user = id === undefined ? undefined : resolve.user(id)
			if (!user) {
				throw invalid(`should name a user of this workspace, instead was \`${JSON.stringify(mention.user)}\``)
			}
			return { type: 'mention', mention: { type, user }, plain_text: `@${String(user.name ?? '')}`, href: null }
		}
		case 'page':
		case 'database': {
			const id = idOf(mention[type])
			const target = id === undefined ? undefined : type === 'page' ? resolve.page(id) : resolve.database(id)
			if (!target || id === undefined) {
				throw invalid(`should name a ${type} shared with the integration`)
			}
			return {
				type: 'mention',
				mention: { type, [type]: { id } },
				plain_text: target.title || 'Untitled',
				href: target.url,
			}
		}
		case 'date': {
			const date = mention.date
			if (!isRecord(date) || typeof date.start !== 'string' || Number.isNaN(Date.parse(date.start))) {
				throw invalid('should be an object with an ISO 8601 `start`')
			}
			const end = typeof date.end === 'string' ? date.end : null
			const timeZone = typeof date.time_zone === 'string' ? date.time_zone : null
			return {
				type: 'mention',
				mention: { type, date: { start: date.start, end, time_zone: timeZone } },
				plain_text: end ? `${date.start} → ${end}` : date.start,
				href: null,
			}
		}
		case 'template_mention': {
			const template = mention.template_mention
			const dateValue = isRecord(template) ? template.template_mention_date : undefined
			const userValue = isRecord(template) ? template.template_mention_user : undefined
			if (dateValue === 'today' || dateValue === 'now') {
				return {
					type: 'mention',
					mention: { type, template_mention: { type: 'template_mention_date', template_mention_date: dateValue } },
					plain_text: templateMentionText[dateValue],
					href: null,
				}
			}
			if (userValue === 'me') {
				return {
					type: 'mention',
					mention: { type, template_mention: { type: 'template_mention_user', template_mention_user: 'me' } },
					plain_text: templateMentionText.me,
					href: null,
				}
			}
			throw invalid('should be `template_mention_date` (today, now) or `template_mention_user` (me)')
		}
		case 'link_preview': {
			// Not writable through the API (Notion makes these when a person pastes a link); the fake takes
			// them so a test can seed what pages in a real workspace carry.
			const url = isRecord(mention.link_preview) ? mention.link_preview.url : undefined
			if (typeof url !== 'string') {
				throw invalid('should be an object with a `url`')
			}
			checkLength(`${path}.mention.link_preview.url`, url, URL_LIMIT)
			return { type: 'mention', mention: { type, link_preview: { url } }, plain_text: url, href: url }
		}
		default:
			throw validationError(
				`body failed validation: ${path}.mention should be defined with one of \`user\`, \`page\`, \`database\`, \`date\` or \`template_mention\`.`,
			)
	}
}

/** Turns a request rich text array into the response shape, enforcing Notion's size limits. */
export function richTextFromRequest(path: string, value: unknown, mentions: MentionResolver): JsonObject[] {
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
			const { type, mention, plain_text, href } = mentionFromRequest(itemPath, item.mention, mentions)
			return { type, mention, annotations, plain_text, href }
		}
		throw validationError(
			`body failed validation: ${itemPath} should be defined with one of \`text\`, \`mention\` or \`equation\`.`,
		)
	})
}
