import type { JsonObject } from './rich-text.ts'
import type { FakeNotionStore } from './store.ts'

export type DemoWorkspace = {
	users: { ada: string; grace: string; alan: string }
	databases: { clients: string; projects: string; timeEntries: string; invoices: string }
	dataSources: { clients: string; projects: string; timeEntries: string; invoices: string }
	pages: { clients: string[]; projects: string[]; timeEntries: string[]; invoices: string[] }
}

const HOUR = 3_600_000
/** Seeded rows are created an hour apart from here, so `created_time` windows and sorts have distinct values. */
const SEED_START = Date.parse('2026-01-05T09:00:00.000Z')

const title = (content: string) => ({ title: [{ text: { content } }] })
const text = (content: string) => ({ rich_text: [{ text: { content } }] })
const select = (name: string) => ({ select: { name } })
const status = (name: string) => ({ status: { name } })
const date = (start: string) => ({ date: { start } })
const relation = (...ids: string[]) => ({ relation: ids.map((id) => ({ id })) })
const people = (...ids: string[]) => ({ people: ids.map((id) => ({ id })) })

function day(offsetDays: number): string {
	return new Date(SEED_START + offsetDays * 24 * HOUR).toISOString().slice(0, 10)
}

/**
 * A small agency workspace using every property type: Clients ← Projects ← Time entries, and Invoices that point
 * at Clients and Time entries (with a rollup of hours and formulas for amounts).
 */
export function seedDemoWorkspace(store: FakeNotionStore): DemoWorkspace {
	let clock = SEED_START
	const at = () => {
		clock += HOUR
		return clock
	}
	const ada = store.addUser({ name: 'Ada Lovelace', email: 'ada@example.com' }).id
	const grace = store.addUser({ name: 'Grace Hopper', email: 'grace@example.com' }).id
	const alan = store.addUser({ name: 'Alan Turing', email: 'alan@example.com' }).id

	const clients = store.addDataSource({
		title: 'Clients',
		icon: '🏢',
		properties: {
			Name: { title: {} },
			Email: { email: {} },
			Phone: { phone_number: {} },
			Website: { url: {} },
			Country: { select: { options: [{ name: 'Netherlands' }, { name: 'Germany' }, { name: 'United Kingdom' }] } },
			Tags: { multi_select: { options: [{ name: 'Retainer' }, { name: 'Enterprise' }, { name: 'Startup' }] } },
			Active: { checkbox: {} },
			'Account manager': { people: {} },
			Logo: { files: {} },
			Notes: { rich_text: {} },
			'Client ID': { unique_id: { prefix: 'CL' } },
			Created: { created_time: {} },
			'Created by': { created_by: {} },
		},
	})
	const projects = store.addDataSource({
		title: 'Projects',
		icon: '📁',
		properties: {
			Name: { title: {} },
			Client: {
				relation: {
					data_source_id: clients.id,
					type: 'dual_property',
					dual_property: { synced_property_name: 'Projects' },
				},
			},
			Status: {
				status: {
					options: [
						{ name: 'Planned', color: 'gray' },
						{ name: 'Active', color: 'blue' },
						{ name: 'Done', color: 'green' },
					],
				},
			},
			Budget: { number: { format: 'euro' } },
			'Hourly rate': { number: { format: 'euro' } },
			Start: { date: {} },
			Due: { date: {} },
			Owner: { people: {} },
		},
	})
	const timeEntries = store.addDataSource({
		title: 'Time entries',
		icon: '⏱️',
		properties: {
			Name: { title: {} },
			Project: {
				relation: {
					data_source_id: projects.id,
					type: 'dual_property',
					dual_property: { synced_property_name: 'Time entries' },
				},
			},
			Date: { date: {} },
			Hours: { number: { format: 'number' } },
			Billable: { checkbox: {} },
			Person: { people: {} },
			Amount: {
				formula: { expression: 'prop("Hours") * 95' },
				compute: (row) => ({ type: 'number', number: (row.number('Hours') ?? 0) * 95 }),
			},
			'Last edited': { last_edited_time: {} },
			'Last edited by': { last_edited_by: {} },
		},
	})
	const invoices = store.addDataSource({
		title: 'Invoices',
		icon: '🧾',
		properties: {
			Name: { title: {} },
			Client: {
				relation: {
					data_source_id: clients.id,
					type: 'dual_property',
					dual_property: { synced_property_name: 'Invoices' },
				},
			},
			'Time entries': { relation: { data_source_id: timeEntries.id, type: 'single_property', single_property: {} } },
			Hours: { rollup: { relation_property_name: 'Time entries', rollup_property_name: 'Hours', function: 'sum' } },
			Amount: { number: { format: 'euro' } },
			Total: {
				formula: { expression: 'prop("Amount") * 1.21' },
				compute: (row) => ({ type: 'number', number: Math.round((row.number('Amount') ?? 0) * 121) / 100 }),
			},
			Status: {
				status: {
					options: [
						{ name: 'Draft', color: 'gray' },
						{ name: 'Sent', color: 'blue' },
						{ name: 'Paid', color: 'green' },
					],
				},
			},
			Issued: { date: {} },
			Due: { date: {} },
			Paid: { checkbox: {} },
			'Invoice #': { unique_id: { prefix: 'INV' } },
			'Contact email': { email: {} },
			Attachments: { files: {} },
		},
	})

	const add = (dataSourceId: string, properties: JsonObject) =>
		store.createPage({ dataSource: store.getDataSource(dataSourceId), properties, createdTime: at(), createdBy: ada })
			.id

	const clientRows: [string, string, string[]][] = [
		['Acme Ltd', 'United Kingdom', ['Retainer', 'Enterprise']],
		['Globex GmbH', 'Germany', ['Enterprise']],
		['Initech BV', 'Netherlands', ['Startup']],
		['Umbrella Corp', 'United Kingdom', []],
		['Hooli', 'Germany', ['Startup', 'Retainer']],
		['Stark Industries', 'Netherlands', ['Enterprise']],
	]
	const clientIds = clientRows.map(([name, country, tags], index) =>
		add(clients.id, {
			Name: title(name),
			Email: { email: `billing@${name.split(' ')[0]?.toLowerCase()}.example` },
			Phone: { phone_number: `+31 20 555 01${index}0` },
			Website: { url: `https://${name.split(' ')[0]?.toLowerCase()}.example` },
			Country: select(country),
			Tags: { multi_select: tags.map((tag) => ({ name: tag })) },
			Active: { checkbox: index !== 3 },
			'Account manager': people(index % 2 === 0 ? ada : grace),
			Logo: { files: [{ name: 'logo.png', external: { url: `https://picsum.photos/seed/${index}/64` } }] },
			Notes: text(index === 0 ? 'Prefers invoices in English, net 30.' : ''),
		}),
	)

	const projectNames = [
		'Website relaunch',
		'Brand refresh',
		'Mobile app',
		'Data migration',
		'SEO audit',
		'Intranet',
		'Support retainer',
		'Checkout redesign',
		'Analytics dashboard',
		'Onboarding flow',
	]
	const statuses = ['Planned', 'Active', 'Active', 'Done']
	const projectIds = projectNames.map((name, index) =>
		add(projects.id, {
			Name: title(name),
			Client: relation(clientIds[index % clientIds.length] ?? ''),
			Status: status(statuses[index % statuses.length] ?? 'Planned'),
			Budget: { number: 5000 + index * 2500 },
			'Hourly rate': { number: 85 + (index % 3) * 10 },
			Start: date(day(index * 3)),
			Due: date(day(index * 3 + 45)),
			Owner: people([ada, grace, alan][index % 3] ?? ada),
		}),
	)

	const tasks = ['Design', 'Development', 'Meeting', 'Review', 'Research']
	const timeEntryIds = Array.from({ length: 40 }, (_, index) =>
		add(timeEntries.id, {
			Name: title(`${tasks[index % tasks.length]} #${index + 1}`),
			Project: relation(projectIds[index % projectIds.length] ?? ''),
			Date: date(day(index)),
			Hours: { number: 0.5 + (index % 8) },
			Billable: { checkbox: index % 5 !== 2 },
			Person: people([ada, grace, alan][index % 3] ?? ada),
		}),
	)

	const invoiceIds = Array.from({ length: 8 }, (_, index) => {
		const client = clientIds[index % clientIds.length] ?? ''
		const entries = timeEntryIds.filter((_, entry) => entry % 8 === index)
		return add(invoices.id, {
			Name: title(`INV-2026-${String(index + 1).padStart(3, '0')}`),
			Client: relation(client),
			'Time entries': relation(...entries),
			Amount: { number: 1200 + index * 350.5 },
			Status: status(['Draft', 'Sent', 'Paid'][index % 3] ?? 'Draft'),
			Issued: date(day(10 + index * 7)),
			Due: date(day(40 + index * 7)),
			Paid: { checkbox: index % 3 === 2 },
			'Contact email': { email: `billing${index}@example.com` },
		})
	})

	return {
		users: { ada, grace, alan },
		databases: {
			clients: clients.databaseId,
			projects: projects.databaseId,
			timeEntries: timeEntries.databaseId,
			invoices: invoices.databaseId,
		},
		dataSources: { clients: clients.id, projects: projects.id, timeEntries: timeEntries.id, invoices: invoices.id },
		pages: { clients: clientIds, projects: projectIds, timeEntries: timeEntryIds, invoices: invoiceIds },
	}
}
