import { checkLogicReferences } from '@blocksmith/contracts/form-checks.ts'
import type { ContentKind, FieldKind, QuestionKind } from '@blocksmith/contracts/form-kinds.ts'
import type { FormLogic } from '@blocksmith/contracts/form-rules.ts'
import { readableTextOn } from '@blocksmith/contracts/form-theme.ts'
import {
	type Form,
	type FormField,
	type FormLayout,
	type FormLimits,
	type FormNotifications,
	type FormPage,
	type FormTheme,
	fieldKindsFor,
	formCalculationSchema,
	formFieldSchema,
	type PublicField,
	type PublicForm,
	type UpdateForm,
	updateFormSchema,
} from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'

// The builder edits a draft of the form and saves it whole. The draft is what PATCH takes,
// less publishing (its own button) and the address (its own endpoint).

export type FormDraft = {
	name: string
	fields: FormField[]
	page: FormPage
	logic: FormLogic
	/** Classic pages or one question at a time, and whether progress shows. */
	layout: FormLayout
	confirmationMessage: string
	/** Set: visitors go there after submitting instead of reading the confirmation message. */
	redirectUrl: string | null
	redirectWithAnswers: boolean
	submitLabel: string
	acceptingResponses: boolean
	closedMessage: string
	limits: FormLimits
	notifications: FormNotifications
	theme: FormTheme
	/** Absent keeps the password, a string sets a new one, null removes it. */
	password?: string | null
}

/** Problems by dotted path (`fields.3.defaultValue`), as the server names them. */
export type DraftErrors = Record<string, string>

export function draftFromForm(form: Form): FormDraft {
	return {
		name: form.name,
		fields: form.fields.map((field) => ({ ...field })),
		layout: { ...form.layout },
		page: { ...form.page, extras: { ...form.page.extras } },
		logic: form.logic.map((rule) => ({
			...rule,
			fieldIds: [...rule.fieldIds],
			conditions: rule.conditions.map((condition) => ({ ...condition })),
		})),
		confirmationMessage: form.confirmationMessage,
		redirectUrl: form.redirectUrl,
		redirectWithAnswers: form.redirectWithAnswers,
		submitLabel: form.submitLabel,
		acceptingResponses: form.acceptingResponses,
		closedMessage: form.closedMessage,
		limits: { ...form.limits },
		notifications: {
			memberIds: [...form.notifications.memberIds],
			respondent: { ...form.notifications.respondent },
		},
		theme: { ...form.theme },
	}
}

/** The PATCH body: the whole draft (the password only when it changes). */
export function changesOf(draft: FormDraft): UpdateForm {
	const { password, ...rest } = draft
	return password === undefined ? rest : { ...rest, password }
}

/** Compares by content, whatever order the keys were written in. */
export function isSameDraft(a: FormDraft, b: FormDraft): boolean {
	return stableJson(changesOf(a)) === stableJson(changesOf(b))
}

function stableJson(value: unknown): string {
	return JSON.stringify(value, (_key, item: unknown) =>
		item && typeof item === 'object' && !Array.isArray(item)
			? Object.fromEntries(
					Object.entries(item as Record<string, unknown>)
						.filter(([, entry]) => entry !== undefined)
						.sort(([left], [right]) => left.localeCompare(right)),
				)
			: item,
	)
}

const friendlyMessages: Record<string, string> = {
	name: 'Give the form a name.',
	confirmationMessage: 'Write what visitors read after they submit.',
	submitLabel: 'Give the submit button a label.',
	closedMessage: 'Write what visitors read while the form is closed.',
	'limits.closesAt': 'Pick a date and a time.',
	'limits.limitReachedMessage': 'Write what visitors read once the form is full.',
	'limits.alreadyRespondedMessage': 'Write what visitors read when they have already answered.',
	'notifications.respondent.subject': 'Give the e-mail a subject.',
	'notifications.respondent.message': 'Write the e-mail’s message.',
	'notifications.respondent.replyTo': 'Enter an e-mail address, or leave it empty.',
}

/** Friendlier words for the problems of any field (`fields.3.choiceScope.ids`), by the rest of the path. */
const friendlyFieldMessages: Record<string, string> = {
	'choiceScope.ids': 'Pick at least one to offer, or choose another setting.',
	'choiceScope.filters': 'Add at least one filter, or choose another setting.',
	choices: 'Add at least one choice.',
	image: 'Upload a picture or link to one.',
}

function friendlyMessage(path: string): string | undefined {
	const fieldPath = /^fields\.\d+\.(.+)$/.exec(path)?.[1]
	return friendlyMessages[path] ?? (fieldPath ? friendlyFieldMessages[fieldPath] : undefined)
}

/** The same checks the server makes on the shape of the draft, before anything is sent. */
export function validateDraft(draft: FormDraft): DraftErrors {
	const result = updateFormSchema.safeParse(changesOf(draft))
	if (result.success) {
		// The server refuses rules on removed fields and loops; saying so here saves a round trip.
		return errorsByPath(
			checkLogicReferences(
				draft.fields.map((field) => field.id),
				draft.logic,
			).map(({ path, message }) => ({ field: path, message })),
		)
	}
	const errors: DraftErrors = {}
	for (const issue of result.error.issues) {
		const path = issue.path.join('.')
		errors[path] ??= friendlyMessage(path) ?? issue.message
	}
	return errors
}

/** Field errors of a problem, keyed by path; the server's `fields.3.x` are the draft's own paths. */
export function errorsByPath(fieldErrors: readonly { field: string; message: string }[]): DraftErrors {
	const errors: DraftErrors = {}
	for (const { field, message } of fieldErrors) {
		errors[field] ??= message
	}
	return errors
}

/** Drops the errors at a path and below it, once the user has changed what they were about. */
export function withoutErrors(errors: DraftErrors, path: string): DraftErrors {
	const kept = Object.entries(errors).filter(([key]) => key !== path && !key.startsWith(`${path}.`))
	return kept.length === Object.keys(errors).length ? errors : Object.fromEntries(kept)
}

/** The index of the first field with a problem, or -1. */
export function firstFieldWithError(errors: DraftErrors): number {
	const indexes = Object.keys(errors)
		.map((path) => /^fields\.(\d+)/.exec(path)?.[1])
		.filter((index): index is string => index !== undefined)
		.map(Number)
	return indexes.length ? Math.min(...indexes) : -1
}

// ---- fields -------------------------------------------------------------------------------

export const kindLabels: Record<FieldKind, string> = {
	short_text: 'Short answer',
	long_text: 'Long answer',
	number: 'Number',
	select: 'Single choice',
	multi_select: 'Multiple choice',
	status: 'Status',
	date: 'Date',
	checkbox: 'Checkbox',
	url: 'Link',
	email: 'E-mail',
	phone: 'Phone number',
	people: 'People',
	relation: 'Linked rows',
	files: 'File upload',
	rating: 'Rating',
	scale: 'Linear scale',
	nps: 'Net Promoter Score',
	ranking: 'Ranking',
	signature: 'Signature',
	matrix: 'Matrix',
	calculated: 'Calculation',
	heading: 'Heading',
	paragraph: 'Text',
	image: 'Image',
	divider: 'Divider',
	page_break: 'Page break',
}

/** Properties a field can write (writable types with a field kind). */
function askableProperties(properties: readonly Property[]): Property[] {
	return properties.filter((property) => fieldKindsFor(property.type).length > 0)
}

/** Askable properties that have no field yet, in the database's order. */
export function unusedProperties(properties: readonly Property[], fields: readonly FormField[]): Property[] {
	const used = new Set(fields.map((field) => field.propertyId))
	return askableProperties(properties).filter((property) => !used.has(property.id))
}

/**
 * The settings a kind needs to be asked at all (choices to rank, a scale's ends, a matrix's rows),
 * given when a field is made or switched to the kind; other kinds' settings are cleared.
 */
export function settingsForKind(
	kind: FieldKind,
	field?: Partial<FormField>,
	property?: Pick<Property, 'type'>,
): Partial<FormField> {
	const choices = field?.choices?.length ? field.choices : ['Option 1', 'Option 2', 'Option 3']
	switch (kind) {
		case 'rating':
			return { scale: { min: 1, max: 5, minLabel: null, maxLabel: null } }
		case 'scale':
			return { scale: field?.scale ?? { min: 1, max: 5, minLabel: null, maxLabel: null } }
		case 'nps':
			return {
				scale: { min: 0, max: 10, minLabel: field?.scale?.minLabel ?? null, maxLabel: field?.scale?.maxLabel ?? null },
			}
		case 'ranking':
			// On a multi-select property, the property's options are what is ranked.
			return { choices: property?.type === 'multi_select' ? null : choices }
		case 'select':
		case 'multi_select':
			// Bound to a property, the property's options are the choices.
			return { choices: field?.propertyId ? null : choices }
		case 'matrix':
			return { matrix: { rows: ['Row 1', 'Row 2'], columns: ['Column 1', 'Column 2', 'Column 3'], multiple: false } }
		case 'calculated':
			return { calculation: formCalculationSchema.parse({}), required: false }
		default:
			return {}
	}
}

/** What switching a field to another kind changes: the new kind's settings, the old one's cleared. */
export function switchKind(field: FormField, kind: FieldKind, property?: Pick<Property, 'type'>): Partial<FormField> {
	return {
		kind,
		defaultValue: null,
		scale: null,
		choices: null,
		matrix: null,
		calculation: null,
		...settingsForKind(kind, field, property),
	}
}

/** Text the label must have (the contract refuses an empty one), cut to its limit. */
function labelText(text: string | undefined, fallback: string): string {
	return (text?.trim() || fallback).slice(0, 200)
}

/** A question on a property, with the kind its type asks by default. Defaults come from the contract. */
export function newField(property: Property): FormField {
	const kind = fieldKindsFor(property.type)[0] ?? 'short_text'
	return formFieldSchema.parse({
		id: crypto.randomUUID(),
		propertyId: property.id,
		kind,
		label: labelText(property.name, 'Untitled question'),
		helpText: property.description ? property.description.slice(0, 1000) : null,
		...settingsForKind(kind, { propertyId: property.id }, property),
	})
}

/** A question kept with the answers only (no property), or bound later to one made for it. */
export function newQuestion(kind: QuestionKind, label?: string, propertyId: string | null = null): FormField {
	return formFieldSchema.parse({
		id: crypto.randomUUID(),
		propertyId,
		kind,
		label: labelText(label, kindLabels[kind]),
		...settingsForKind(kind, { propertyId }),
	})
}

const contentLabels: Record<ContentKind, string> = {
	heading: 'New section',
	paragraph: 'Text',
	image: 'Image',
	divider: 'Divider',
	page_break: 'Next page',
}

/** Content: never answered, never bound. A heading's label is its text; a page break's, the next page's title. */
export function newContent(kind: ContentKind): FormField {
	return formFieldSchema.parse({
		id: crypto.randomUUID(),
		kind,
		label: contentLabels[kind],
		...(kind === 'paragraph' ? { body: '' } : {}),
	})
}

/** 1-based page of each item: page breaks start pages (a break belongs to the page it opens). */
export function pageNumbers(fields: readonly Pick<FormField, 'kind'>[]): number[] {
	let page = 1
	return fields.map((field) => {
		if (field.kind === 'page_break') {
			page += 1
		}
		return page
	})
}

/** Errors of a field list follow their field when fields move or go: they are keyed by index. */
export function reindexErrors(
	errors: DraftErrors,
	before: readonly FormField[],
	after: readonly FormField[],
): DraftErrors {
	const newIndex = new Map(after.map((field, index) => [field.id, index]))
	const result: DraftErrors = {}
	for (const [path, message] of Object.entries(errors)) {
		const match = /^fields\.(\d+)(.*)$/.exec(path)
		if (!match) {
			result[path] = message
			continue
		}
		const field = before[Number(match[1])]
		const index = field ? newIndex.get(field.id) : undefined
		if (index !== undefined) {
			result[`fields.${index}${match[2]}`] = message
		}
	}
	return result
}

/** A field as visitors get it: with its property's choices, or the related database. */
function publicField(field: FormField, property: Property | undefined, imageUrl: string | null): PublicField {
	// Visitors never learn the scope itself: only whether they must search.
	const { choiceScope, ...rest } = field
	const options = field.choices ?? property?.options?.map((option) => option.name)
	return {
		...rest,
		...(options ? { options } : {}),
		relationDatabaseId: property?.relationDatabaseId ?? null,
		...(field.kind === 'relation' || field.kind === 'people' ? { searchOnly: choiceScope.mode === 'search' } : {}),
		...(field.kind === 'image' ? { imageUrl } : {}),
	}
}

/**
 * The draft as the public page would get it, for the live preview: choices from the
 * properties, images as URLs to show, no password gate and no render token.
 */
export function previewForm(
	form: Pick<Form, 'id' | 'slug' | 'tool' | 'theme' | 'themeCss'>,
	draft: FormDraft,
	properties: readonly Property[],
	images: { pageThumbnail: string | null; favicon: string | null; logo: string | null; cover: string | null },
	/** image items' pictures, by field id, as the builder can show them. */
	itemImages: Readonly<Record<string, string | null>> = {},
): PublicForm {
	const byId = new Map(properties.map((property) => [property.id, property]))
	const theme = draft.theme
	return {
		id: form.id,
		slug: form.slug,
		tool: form.tool,
		name: draft.name,
		pageTitle: draft.page.pageTitle,
		pageDescription: draft.page.pageDescription,
		pageThumbnail: images.pageThumbnail,
		favicon: images.favicon,
		extras: { indexable: draft.page.extras.indexable },
		fields: draft.fields.map((field) =>
			publicField(field, field.propertyId ? byId.get(field.propertyId) : undefined, itemImages[field.id] ?? null),
		),
		logic: draft.logic,
		layout: draft.layout,
		passwordRequired: false,
		acceptingResponses: draft.acceptingResponses,
		closedMessage: draft.closedMessage,
		oneResponsePer: draft.limits.oneResponsePer,
		confirmationMessage: draft.confirmationMessage,
		submitLabel: draft.submitLabel,
		theme: {
			mode: theme.mode,
			accentColor: theme.accentColor,
			accentForeground: theme.accentColor ? readableTextOn(theme.accentColor) : null,
			backgroundColor: theme.backgroundColor,
			font: theme.font,
			corners: theme.corners,
			logo: images.logo,
			cover: images.cover,
			// Confined to the form by the server: the saved CSS, until the draft's is saved too.
			css: form.themeCss,
			showBranding: !theme.removeBranding,
		},
		renderToken: '',
	}
}
