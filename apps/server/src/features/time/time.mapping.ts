import type { FieldError } from '@blocksmith/contracts/errors.ts'
import type { TimeField, TimeFieldCheck, TimeMapping, TimeMappingReview } from '@blocksmith/contracts/time.ts'
import type { Property, PropertyType } from '@blocksmith/contracts/workspaces.ts'
import { AppError } from '#src/lib/errors.ts'

// How a database's properties map to a time entry: guessed from names and types, checked
// before it is saved (a 400 naming `mapping.<field>`), and reviewed field by field so the page
// can say what is missing. Pure: the service reads the databases.

/** The types each field can be stored in. */
const fieldTypes: Record<TimeField, readonly PropertyType[]> = {
	start: ['date'],
	end: ['date'],
	duration: ['number'],
	person: ['people'],
	project: ['relation', 'select'],
	client: ['relation', 'select'],
	task: ['title', 'rich_text', 'select', 'relation'],
	tags: ['multi_select'],
	billable: ['checkbox'],
	description: ['title', 'rich_text'],
}

/** The properties of the entries' database, and of the database its project relation points at. */
export type MappingTarget = { properties: Property[]; projectProperties: (projectPropertyId: string) => Property[] }

const names = {
	start: /\b(start|started|begin|from|clock.?in)\b/i,
	end: /\b(end|ended|stop|stopped|finish|until|clock.?out)\b/i,
	range: /\b(when|date|time|period|day|session|tracked)\b/i,
	notTime: /\b(due|created|edited|deadline|invoice|paid)\b/i,
	duration: /\b(hours?|hrs?|duration|minutes?|mins?|time spent|spent)\b/i,
	minutes: /\bmin/i,
	person: /\b(person|people|user|member|who|assignee|owner|by|tracked by|employee)\b/i,
	project: /\bprojects?\b/i,
	client: /\b(clients?|customers?|company|companies|account)\b/i,
	task: /\b(tasks?|activity|activities|service|work type)\b/i,
	tags: /\b(tags?|labels?|categor(y|ies)|type)\b/i,
	billable: /\b(billable|bill|invoice|invoiceable|chargeable)\b/i,
	description: /\b(description|notes?|what|details?|summary)\b/i,
}

function ofTypes(properties: Property[], types: readonly PropertyType[]): Property[] {
	return properties.filter((property) => types.includes(property.type))
}

function named(properties: Property[], pattern: RegExp): Property | undefined {
	return properties.find((property) => pattern.test(property.name))
}

/** A mapping guessed from property names and types; a field with no plausible property is left null. */
export function suggestMapping(target: MappingTarget): TimeMapping {
	const { properties } = target
	const dates = ofTypes(properties, ['date']).filter((p) => !names.notTime.test(p.name))
	const startDate = named(dates, names.start)
	const endDate = named(
		dates.filter((p) => p !== startDate),
		names.end,
	)
	// One date without a separate end holds the whole entry as a range.
	const rangeDate = startDate && endDate ? undefined : (startDate ?? named(dates, names.range) ?? dates[0])
	const numbers = ofTypes(properties, ['number'])
	const duration = named(numbers, names.duration)
	const people = ofTypes(properties, ['people'])
	const relations = ofTypes(properties, ['relation'])
	const selects = ofTypes(properties, ['select'])
	const project = named(relations, names.project) ?? named(selects, names.project)
	const entryClient = named([...relations, ...selects], names.client)
	let client: TimeMapping['client'] = entryClient ? { propertyId: entryClient.id, through: 'entry' } : null
	if (!client && project?.type === 'relation') {
		const projectProperties = target.projectProperties(project.id)
		const through = named(ofTypes(projectProperties, ['relation', 'select']), names.client)
		client = through ? { propertyId: through.id, through: 'project' } : null
	}
	const title = properties.find((p) => p.type === 'title')
	const taskCandidates = [...selects, ...relations, ...ofTypes(properties, ['rich_text'])].filter(
		(p) => p !== project && p !== entryClient,
	)
	const task = named(taskCandidates, names.task) ?? (title && names.task.test(title.name) ? title : undefined)
	const notes = named(ofTypes(properties, ['rich_text']), names.description)
	const multi = ofTypes(properties, ['multi_select'])
	return {
		start: (startDate ?? rangeDate)?.id ?? null,
		end: (endDate ?? rangeDate)?.id ?? null,
		duration: duration?.id ?? null,
		durationUnit: duration && names.minutes.test(duration.name) ? 'minutes' : 'hours',
		person: (named(people, names.person) ?? people[0])?.id ?? null,
		project: project?.id ?? null,
		client,
		task: task?.id ?? null,
		tags: (named(multi, names.tags) ?? multi[0])?.id ?? null,
		billable: named(ofTypes(properties, ['checkbox']), names.billable)?.id ?? null,
		// The title is what an entry is called in the workspace: the description, unless a text property is.
		description: (notes && notes !== task ? notes : title)?.id ?? null,
	}
}

const missingMessages: Record<TimeField, string> = {
	start: 'Add a date property for when an entry starts (a date with an end can hold the whole entry).',
	end: 'Add a date property for the end, or a number for the duration.',
	duration: 'Optional: a number property for the duration (hours or minutes) is filled in when an entry stops.',
	person: 'Add a people property: without it entries cannot be told apart by person in the workspace.',
	project: 'Optional: a relation to a projects database (or a select) to track time by project.',
	client: 'Optional: a client relation or select, here or on the projects database.',
	task: 'Optional: a select, relation or text property for the task.',
	tags: 'Optional: a multi-select property for tags.',
	billable: 'Optional: a checkbox property for billable time.',
	description: 'Optional: the title or a text property for what was done.',
}

/** Each field as mapped or missing, and whether the mapping is enough to track time. */
export function reviewMapping(mapping: TimeMapping, target: MappingTarget): TimeMappingReview {
	const byId = new Map(target.properties.map((p) => [p.id, p]))
	const hasEnd = Boolean(mapping.end || mapping.duration)
	const fields = (Object.keys(fieldTypes) as TimeField[]).map((field): TimeFieldCheck => {
		let property: Property | undefined
		let propertyName: string | null = null
		if (field === 'client') {
			const client = mapping.client
			if (client?.through === 'project' && mapping.project) {
				property = target.projectProperties(mapping.project).find((p) => p.id === client.propertyId)
				propertyName = property ? `${byId.get(mapping.project)?.name ?? 'Project'} → ${property.name}` : null
			} else if (client) {
				property = byId.get(client.propertyId)
			}
		} else {
			const id = mapping[field]
			property = typeof id === 'string' ? byId.get(id) : undefined
		}
		propertyName ??= property?.name ?? null
		const isRequired = field === 'start' || (field === 'end' && !mapping.duration) || (field === 'duration' && !hasEnd)
		const isMapped = Boolean(property)
		const message = isMapped ? null : missingMessages[field]
		return { field, propertyId: property?.id ?? null, propertyName, isMapped, isRequired, message }
	})
	const isComplete = fields.every((check) => check.isMapped || !check.isRequired)
	return { mapping, fields, isComplete }
}

/** Field pairs that may name one property: a date range holds start and end, the title both task and description. */
const mayShare = new Set(['start:end', 'task:description'])

/**
 * Checks a mapping before it is saved: each property exists (in the projects database, for a
 * client through the project) and has a type the field can be stored in, a property serves one
 * field (but for the pairs above), and the time can be told: a start, and an end or a duration.
 * Throws VALIDATION_FAILED naming each offending `mapping.<field>`.
 */
export function checkMapping(mapping: TimeMapping, target: MappingTarget): void {
	const errors: FieldError[] = []
	const byId = new Map(target.properties.map((p) => [p.id, p]))
	const usedBy = new Map<string, TimeField>()
	for (const field of Object.keys(fieldTypes) as TimeField[]) {
		const path = field === 'client' ? 'mapping.client.propertyId' : `mapping.${field}`
		const id = field === 'client' ? (mapping.client?.propertyId ?? null) : (mapping[field] as string | null)
		if (id === null) {
			continue
		}
		const throughProject = field === 'client' && mapping.client?.through === 'project'
		if (throughProject) {
			const project = mapping.project ? byId.get(mapping.project) : undefined
			if (project?.type !== 'relation') {
				errors.push({
					field: 'mapping.client.through',
					message: 'A client through the project needs a project relation.',
				})
				continue
			}
		}
		const properties = throughProject && mapping.project ? target.projectProperties(mapping.project) : target.properties
		const property = properties.find((p) => p.id === id)
		if (!property) {
			errors.push({ field: path, message: `There is no property ${id} in this database.` })
			continue
		}
		if (!fieldTypes[field].includes(property.type)) {
			const allowed = fieldTypes[field].join(', ')
			errors.push({ field: path, message: `${property.name} is a ${property.type} property; use one of: ${allowed}.` })
			continue
		}
		if (throughProject) {
			continue
		}
		const other = usedBy.get(id)
		if (other && !mayShare.has(`${other}:${field}`)) {
			errors.push({ field: path, message: `${property.name} already holds the ${other}.` })
			continue
		}
		usedBy.set(id, field)
	}
	if (errors.length === 0 && !mapping.start) {
		errors.push({ field: 'mapping.start', message: 'Choose the date property for when an entry starts.' })
	}
	if (errors.length === 0 && !mapping.end && !mapping.duration) {
		errors.push({ field: 'mapping.end', message: 'Choose a date property for the end, or a number for the duration.' })
	}
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', {
			detail: errors.length === 1 ? (errors[0]?.message ?? 'The mapping is invalid.') : 'The mapping is invalid.',
			errors,
		})
	}
}
