import type { FieldError } from '@blocksmith/contracts/errors.ts'
import {
	type InvoiceDatabaseMapping,
	type InvoiceMappingField,
	type InvoiceMappingReview,
	invoiceDatabaseMappingSchema,
	invoiceMappingFields,
	rowStatusKeys,
	type StatusOptions,
} from '@blocksmith/contracts/invoice-workspace.ts'
import type { Property, PropertyType } from '@blocksmith/contracts/workspaces.ts'
import { AppError } from '#src/lib/errors.ts'

// How an invoices database's properties map to an invoice: guessed from names and types,
// checked before it is saved (a 400 naming `mapping.<field>`), and reviewed field by field so
// the page can say what is missing. Pure: the service reads the databases (and those the client
// and line-item relations point at).

/** The invoices database's properties, and those of the database a relation of it points at. */
export type MappingTarget = { properties: Property[]; related: (relationPropertyId: string) => Property[] }

type PlainField = Exclude<InvoiceMappingField, 'clientMapping' | 'lineItems'>

const fieldTypes: Record<PlainField, readonly PropertyType[]> = {
	number: ['title', 'rich_text'],
	client: ['relation'],
	amount: ['number'],
	netAmount: ['number'],
	taxAmount: ['number'],
	amountDue: ['number'],
	currency: ['select', 'rich_text'],
	issueDate: ['date'],
	dueDate: ['date'],
	paidDate: ['date'],
	paid: ['checkbox'],
	status: ['select', 'status'],
	link: ['url'],
}

const clientTypes: Record<string, readonly PropertyType[]> = {
	name: ['title', 'rich_text'],
	email: ['email', 'rich_text'],
	taxId: ['rich_text'],
	addressLines: ['rich_text'],
	postcode: ['rich_text'],
	city: ['rich_text', 'select'],
	country: ['rich_text', 'select'],
}

const lineTypes: Record<string, readonly PropertyType[]> = {
	description: ['title', 'rich_text'],
	quantity: ['number'],
	unit: ['rich_text', 'select'],
	unitPrice: ['number'],
}

const names = {
	client: /\b(clients?|customers?|compan(y|ies)|accounts?|billed to)\b/i,
	amount: /\b(amount|total|sum|gross|value)\b/i,
	notGross: /\b(net|sub.?total|tax|vat|due|paid|balance|outstanding)\b/i,
	net: /\b(net|sub.?total)\b/i,
	tax: /\b(tax|vat|gst)\b/i,
	due: /\b(due|balance|outstanding|owed|remaining)\b/i,
	currency: /\bcurrenc(y|ies)\b/i,
	issue: /\b(issued?|invoice date|date|sent|billed)\b/i,
	dueDate: /\bdue\b/i,
	paidDate: /\b(paid|payment)\b/i,
	paid: /\bpaid\b/i,
	status: /\b(status|state|stage)\b/i,
	link: /\b(link|url|page|public|view)\b/i,
	lines: /\b(line|lines|items?|services?|products?)\b/i,
	price: /\b(price|rate|unit price|amount|cost)\b/i,
	quantity: /\b(quantity|qty|hours|units?|count)\b/i,
	email: /\be-?mail\b/i,
	taxId: /\b(tax|vat)\b/i,
	address: /\baddress\b/i,
	postcode: /\b(post.?code|zip|postal)\b/i,
	city: /\b(city|town)\b/i,
	country: /\bcountry\b/i,
}

const optionNames: Record<(typeof rowStatusKeys)[number], RegExp> = {
	draft: /\bdraft\b/i,
	finalized: /\b(finali[sz]ed|issued|open|unpaid|outstanding|pending)\b/i,
	sent: /\b(sent|issued|open|unpaid|awaiting)\b/i,
	partially_paid: /\bpartial(ly)?\b/i,
	paid: /^(?!.*\b(un|partial|partially)).*\bpaid\b/i,
	void: /\b(void|voided|cancell?ed)\b/i,
	overdue: /\b(overdue|late)\b/i,
}

function ofTypes(properties: Property[], types: readonly PropertyType[]): Property[] {
	return properties.filter((property) => types.includes(property.type))
}

function named(properties: Property[], pattern: RegExp): Property | undefined {
	return properties.find((property) => pattern.test(property.name))
}

/**
 * The option each status is written as, guessed from the options' names. A finalized invoice
 * not sent yet, and one partly paid, take the "sent" option where the select has none of their
 * own: they are open invoices, which is what that option says in a workspace.
 */
function suggestStatusOptions(status: Property | undefined): StatusOptions {
	const options = (status?.options ?? []).map((option) => option.name)
	const pick = (pattern: RegExp) => options.find((name) => pattern.test(name)) ?? null
	const sent = pick(optionNames.sent)
	return {
		draft: pick(optionNames.draft),
		finalized: pick(optionNames.finalized) ?? sent,
		sent,
		partially_paid: pick(optionNames.partially_paid) ?? sent,
		paid: pick(optionNames.paid),
		void: pick(optionNames.void),
		overdue: pick(optionNames.overdue),
	}
}

function suggestClientMapping(properties: Property[]): InvoiceDatabaseMapping['clientMapping'] {
	const title = properties.find((property) => property.type === 'title')
	if (!title) {
		return null
	}
	const texts = ofTypes(properties, ['rich_text'])
	const places = ofTypes(properties, ['rich_text', 'select'])
	const parts: Record<string, Property | undefined> = {
		email: ofTypes(properties, ['email'])[0] ?? named(texts, names.email),
		taxId: named(texts, names.taxId),
		addressLines: named(texts, names.address),
		postcode: named(texts, names.postcode),
		city: named(places, names.city),
		country: named(places, names.country),
	}
	const found = Object.entries(parts).flatMap(([part, property]) => (property ? [[part, property.id]] : []))
	return { name: title.id, ...Object.fromEntries(found) }
}

/** A mapping guessed from property names and types; a field with no plausible property is left null. */
export function suggestInvoiceMapping(target: MappingTarget): InvoiceDatabaseMapping {
	const { properties } = target
	const numbers = ofTypes(properties, ['number'])
	const dates = ofTypes(properties, ['date'])
	const relations = ofTypes(properties, ['relation'])
	const client = named(relations, names.client)
	const statusProperty = named(ofTypes(properties, ['status', 'select']), names.status)
	const lineRelation = named(
		relations.filter((relation) => relation !== client),
		names.lines,
	)
	const lineProperties = lineRelation ? target.related(lineRelation.id) : []
	const lineTitle = ofTypes(lineProperties, ['title'])[0]
	const linePrice = named(ofTypes(lineProperties, ['number']), names.price)
	const lineQuantity = named(
		ofTypes(lineProperties, ['number']).filter((property) => property !== linePrice),
		names.quantity,
	)
	const dueDate = named(dates, names.dueDate)
	const paidDate = named(
		dates.filter((date) => date !== dueDate),
		names.paidDate,
	)
	const issueDate = named(
		dates.filter((date) => date !== dueDate && date !== paidDate),
		names.issue,
	)
	const ref = (property: Property | undefined) => property?.id ?? null
	return invoiceDatabaseMappingSchema.parse({
		number: (properties.find((property) => property.type === 'title') ?? properties[0])?.id ?? 'title',
		client: ref(client),
		amount: ref(numbers.find((number) => names.amount.test(number.name) && !names.notGross.test(number.name))),
		netAmount: ref(named(numbers, names.net)),
		taxAmount: ref(named(numbers, names.tax)),
		amountDue: ref(named(numbers, names.due)),
		currency: ref(named(ofTypes(properties, ['select', 'rich_text']), names.currency)),
		issueDate: ref(issueDate),
		dueDate: ref(dueDate),
		paidDate: ref(paidDate),
		paid: ref(named(ofTypes(properties, ['checkbox']), names.paid)),
		status: ref(statusProperty),
		statusOptions: suggestStatusOptions(statusProperty),
		link: ref(named(ofTypes(properties, ['url']), names.link)),
		clientMapping: client ? suggestClientMapping(target.related(client.id)) : null,
		lineItems:
			lineRelation && lineTitle && linePrice
				? {
						propertyId: lineRelation.id,
						mapping: {
							description: lineTitle.id,
							unitPrice: linePrice.id,
							...(lineQuantity ? { quantity: lineQuantity.id } : {}),
						},
					}
				: null,
	})
}

const missingMessages: Record<InvoiceMappingField, string> = {
	number: 'Choose the title or a text property for the invoice number.',
	client: 'Optional: a relation to your clients database links each row to its client.',
	amount: 'Add a number property for the amount: without it the row does not show what the invoice is for.',
	netAmount: 'Optional: a number property for the amount before tax.',
	taxAmount: 'Optional: a number property for the tax.',
	amountDue: 'Optional: a number property for what is left to pay.',
	currency: 'Optional: a select or text property for the currency.',
	issueDate: 'Optional: a date property for the issue date.',
	dueDate: 'Optional: a date property for the due date.',
	paidDate: 'Optional: a date property for the day the invoice was paid.',
	paid: 'Optional: a checkbox ticked once the invoice is paid.',
	status: 'Add a select or status property: without it the status is not written back.',
	link: 'Optional: a URL property for the link to the invoice’s page.',
	clientMapping: 'Optional: which properties of the client’s row give its name, e-mail and address.',
	lineItems: 'Optional: a relation to rows that become the invoice’s lines (else one line from the amount).',
}

function propertyOf(mapping: InvoiceDatabaseMapping, field: InvoiceMappingField, target: MappingTarget) {
	const byId = new Map(target.properties.map((property) => [property.id, property]))
	if (field === 'clientMapping') {
		const related = mapping.client && mapping.clientMapping ? target.related(mapping.client) : []
		return related.find((property) => property.id === mapping.clientMapping?.name)
	}
	if (field === 'lineItems') {
		return mapping.lineItems ? byId.get(mapping.lineItems.propertyId) : undefined
	}
	const id = mapping[field]
	return id ? byId.get(id) : undefined
}

/** Each field as mapped or missing, the statuses not written, and whether rows can be written. */
export function reviewInvoiceMapping(mapping: InvoiceDatabaseMapping, target: MappingTarget): InvoiceMappingReview {
	const fields = invoiceMappingFields.map((field) => {
		const property = propertyOf(mapping, field, target)
		return {
			field,
			propertyId: property?.id ?? null,
			propertyName: property?.name ?? null,
			isMapped: Boolean(property),
			isRequired: field === 'number',
			message: property ? null : missingMessages[field],
		}
	})
	const hasStatus = fields.some((check) => check.field === 'status' && check.isMapped)
	return {
		mapping,
		fields,
		unmappedStatuses: rowStatusKeys.filter((key) => !hasStatus || mapping.statusOptions[key] === null),
		isComplete: fields.every((check) => check.isMapped || !check.isRequired),
	}
}

function checkProperty(
	errors: FieldError[],
	path: string,
	id: string | null | undefined,
	properties: Property[],
	types: readonly PropertyType[],
): Property | undefined {
	if (!id) {
		return undefined
	}
	const property = properties.find((candidate) => candidate.id === id)
	if (!property) {
		errors.push({ field: path, message: `There is no property ${id} in this database.` })
		return undefined
	}
	if (!types.includes(property.type)) {
		errors.push({
			field: path,
			message: `${property.name} is a ${property.type} property; use one of: ${types.join(', ')}.`,
		})
		return undefined
	}
	return property
}

/**
 * Checks a mapping before it is saved: each property exists (in the related database for the
 * client's and the lines' parts) with a type the field can be written as, a property serves
 * one field, and each status option named is an option of the status property. Throws
 * VALIDATION_FAILED naming each offending `mapping.<field>`.
 */
export function checkInvoiceMapping(mapping: InvoiceDatabaseMapping, target: MappingTarget): void {
	const errors: FieldError[] = []
	const usedBy = new Map<string, string>()
	for (const field of Object.keys(fieldTypes) as PlainField[]) {
		const property = checkProperty(errors, `mapping.${field}`, mapping[field], target.properties, fieldTypes[field])
		if (!property) {
			continue
		}
		const other = usedBy.get(property.id)
		if (other) {
			errors.push({ field: `mapping.${field}`, message: `${property.name} already holds the ${other}.` })
		}
		usedBy.set(property.id, field)
	}
	// Options are checked against a status property that can hold them (else its own error says so).
	const status = target.properties.find(
		(property) => property.id === mapping.status && fieldTypes.status.includes(property.type),
	)
	for (const key of rowStatusKeys) {
		const option = mapping.statusOptions[key]
		if (option !== null && status && !(status.options ?? []).some((candidate) => candidate.name === option)) {
			errors.push({ field: `mapping.statusOptions.${key}`, message: `${status.name} has no option "${option}".` })
		}
	}
	if (mapping.clientMapping) {
		if (!mapping.client) {
			errors.push({ field: 'mapping.clientMapping', message: 'Map the client relation first.' })
		} else {
			const related = target.related(mapping.client)
			for (const [part, id] of Object.entries(mapping.clientMapping)) {
				checkProperty(errors, `mapping.clientMapping.${part}`, id, related, clientTypes[part] ?? [])
			}
		}
	}
	if (mapping.lineItems) {
		const relation = checkProperty(
			errors,
			'mapping.lineItems.propertyId',
			mapping.lineItems.propertyId,
			target.properties,
			['relation'],
		)
		if (relation && relation.id === mapping.client) {
			errors.push({ field: 'mapping.lineItems.propertyId', message: `${relation.name} already holds the client.` })
		} else if (relation) {
			const related = target.related(relation.id)
			for (const [part, id] of Object.entries(mapping.lineItems.mapping)) {
				checkProperty(errors, `mapping.lineItems.mapping.${part}`, id, related, lineTypes[part] ?? [])
			}
		}
	}
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', {
			detail: errors.length === 1 ? (errors[0]?.message ?? 'The mapping is invalid.') : 'The mapping is invalid.',
			errors,
		})
	}
}
