import type { RowValues, Workspace } from '@blocksmith/contracts/workspaces.ts'
import { eq } from 'drizzle-orm'
import { insertLocalRows } from './local/local.connector.ts'
import type { WorkspaceCtx } from './workspaces.deps.ts'
import { workspaceDatabases } from './workspaces.schema.ts'
import { createLocalDatabase, createLocalWorkspace } from './workspaces.service.ts'

// "Create a sample workspace": five related databases — clients, projects, time entries,
// invoices and enquiries (a contact form's target, with every writable type) — with enough
// rows that every module (forms, charts, invoices, portals, time tracking) has something real
// to show at once. The data is fixed, so every sample looks the same.

const clientNames = [
	['Acme Ltd', 'Active'],
	['Globex Corporation', 'Active'],
	['Initech', 'Active'],
	['Umbrella Studio', 'Lead'],
	['Stark Design', 'Active'],
	['Wayne Foundation', 'Past'],
	['Hooli', 'Lead'],
	['Soylent Foods', 'Active'],
] as const

const projectNames = [
	'Website redesign',
	'Brand guidelines',
	'Mobile app MVP',
	'SEO audit',
	'Annual report',
	'Product launch campaign',
	'Onboarding flow',
	'Data dashboard',
	'Newsletter templates',
	'Trade show booth',
	'Customer portal',
	'Pricing page',
]

const tasks = [
	'Design review',
	'Client call',
	'Wireframes',
	'Copywriting',
	'Development',
	'QA pass',
	'Research',
	'Workshop',
]

const enquiryNames: [string, string][] = [
	['Maya Lindqvist', 'Design'],
	['Tomás Ortega', 'Development'],
	['Priya Raman', 'Consulting'],
]

/** Deterministic pseudo-random numbers, so the sample is the same every time. */
function sequence(seed: number) {
	let state = seed
	return () => {
		state = (state * 1103515245 + 12345) % 2147483648
		return state / 2147483648
	}
}

function day(offsetDays: number): string {
	const date = new Date(Date.UTC(2026, 0, 5) + offsetDays * 86_400_000)
	return date.toISOString().slice(0, 10)
}

function idOf(properties: { id: string; name: string }[], name: string): string {
	const property = properties.find((p) => p.name === name)
	if (!property) {
		throw new Error(`sample property ${name} missing`)
	}
	return property.id
}

export async function createSampleWorkspace(ctx: WorkspaceCtx): Promise<Workspace> {
	const workspace = await createLocalWorkspace(ctx, 'Sample workspace')
	const random = sequence(42)
	const color = (name: string, c: 'green' | 'blue' | 'gray' | 'orange' | 'red' | 'purple' | 'yellow') => ({
		name,
		color: c,
	})

	const clients = await createLocalDatabase(ctx, {
		workspaceId: workspace.id,
		name: 'Clients',
		properties: [
			{ name: 'Name', type: 'title' },
			{ name: 'Email', type: 'email' },
			{ name: 'Phone', type: 'phone_number' },
			{ name: 'Website', type: 'url' },
			{
				name: 'Stage',
				type: 'select',
				options: [color('Lead', 'yellow'), color('Active', 'green'), color('Past', 'gray')],
			},
			{ name: 'Account manager', type: 'people' },
		],
	})
	const projects = await createLocalDatabase(ctx, {
		workspaceId: workspace.id,
		name: 'Projects',
		properties: [
			{ name: 'Name', type: 'title' },
			{ name: 'Client', type: 'relation', relationDatabaseId: clients.id },
			{
				name: 'Status',
				type: 'status',
				options: [color('Not started', 'gray'), color('In progress', 'blue'), color('Done', 'green')],
			},
			{ name: 'Budget', type: 'number', format: 'dollar' },
			{ name: 'Timeline', type: 'date' },
			{
				name: 'Tags',
				type: 'multi_select',
				options: [
					color('Design', 'purple'),
					color('Development', 'blue'),
					color('Marketing', 'orange'),
					color('Strategy', 'green'),
				],
			},
			{ name: 'Brief', type: 'rich_text' },
		],
	})
	const timeEntries = await createLocalDatabase(ctx, {
		workspaceId: workspace.id,
		name: 'Time entries',
		properties: [
			{ name: 'Task', type: 'title' },
			{ name: 'Project', type: 'relation', relationDatabaseId: projects.id },
			{ name: 'Person', type: 'people' },
			{ name: 'When', type: 'date' },
			{ name: 'Hours', type: 'number', format: 'number' },
			{ name: 'Billable', type: 'checkbox' },
			{
				name: 'Tags',
				type: 'multi_select',
				options: [color('Meeting', 'yellow'), color('Deep work', 'blue'), color('Admin', 'gray')],
			},
		],
	})
	const invoices = await createLocalDatabase(ctx, {
		workspaceId: workspace.id,
		name: 'Invoices',
		properties: [
			{ name: 'Number', type: 'title' },
			{ name: 'Client', type: 'relation', relationDatabaseId: clients.id },
			{ name: 'Amount', type: 'number', format: 'dollar' },
			{ name: 'Issued', type: 'date' },
			{ name: 'Due', type: 'date' },
			{
				name: 'Status',
				type: 'select',
				options: [color('Draft', 'gray'), color('Sent', 'blue'), color('Paid', 'green'), color('Overdue', 'red')],
			},
			{ name: 'Paid', type: 'checkbox' },
			{ name: 'Attachments', type: 'files' },
		],
	})

	// What a contact form on a website writes into: one property of every writable type.
	const enquiries = await createLocalDatabase(ctx, {
		workspaceId: workspace.id,
		name: 'Enquiries',
		properties: [
			{ name: 'Name', type: 'title' },
			{ name: 'Message', type: 'rich_text' },
			{ name: 'Budget', type: 'number', format: 'dollar' },
			{
				name: 'Service',
				type: 'select',
				options: [color('Design', 'purple'), color('Development', 'blue'), color('Consulting', 'green')],
			},
			{
				name: 'Interests',
				type: 'multi_select',
				options: [color('Website', 'blue'), color('Branding', 'orange'), color('SEO', 'green')],
			},
			{
				name: 'Status',
				type: 'status',
				options: [color('New', 'gray'), color('Replied', 'blue'), color('Won', 'green')],
			},
			{ name: 'Preferred start', type: 'date' },
			{ name: 'Newsletter', type: 'checkbox' },
			{ name: 'Website', type: 'url' },
			{ name: 'Email', type: 'email' },
			{ name: 'Phone', type: 'phone_number' },
			{ name: 'Assignee', type: 'people' },
			{ name: 'Client', type: 'relation', relationDatabaseId: clients.id },
			{ name: 'Attachments', type: 'files' },
		],
	})

	const records = async (id: string) => {
		const [record] = await ctx.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, id))
		if (!record) {
			throw new Error('sample database missing')
		}
		return record
	}
	const person = [ctx.userId]

	const c = clients.properties
	const clientRows = await insertLocalRows(
		ctx.db,
		ctx.orgId,
		await records(clients.id),
		clientNames.map(([name, stage]): RowValues => {
			const slug = name.toLowerCase().replace(/[^a-z]+/g, '')
			return {
				[idOf(c, 'Name')]: name,
				[idOf(c, 'Email')]: `billing@${slug}.example`,
				[idOf(c, 'Phone')]: `+1 555 01${String(Math.floor(random() * 90) + 10)}`,
				[idOf(c, 'Website')]: `https://${slug}.example`,
				[idOf(c, 'Stage')]: stage,
				[idOf(c, 'Account manager')]: person,
			}
		}),
	)

	const p = projects.properties
	const statuses = ['Not started', 'In progress', 'In progress', 'Done'] as const
	const tagNames = ['Design', 'Development', 'Marketing', 'Strategy']
	const projectRows = await insertLocalRows(
		ctx.db,
		ctx.orgId,
		await records(projects.id),
		projectNames.map((name, index): RowValues => {
			const start = index * 14
			return {
				[idOf(p, 'Name')]: name,
				[idOf(p, 'Client')]: [clientRows[index % clientRows.length]?.id ?? ''],
				[idOf(p, 'Status')]: statuses[index % statuses.length] ?? 'Not started',
				[idOf(p, 'Budget')]: 2000 + Math.round(random() * 18) * 500,
				[idOf(p, 'Timeline')]: { start: day(start), end: day(start + 30 + (index % 4) * 15), timeZone: null },
				[idOf(p, 'Tags')]: [
					tagNames[index % 4] ?? 'Design',
					...(index % 3 === 0 ? [tagNames[(index + 1) % 4] ?? 'Strategy'] : []),
				],
				[idOf(p, 'Brief')]: `${name} for ${clientNames[index % clientNames.length]?.[0]}.`,
			}
		}),
	)

	const t = timeEntries.properties
	const entryTags = ['Meeting', 'Deep work', 'Admin']
	const entries: RowValues[] = []
	for (let index = 0; index < 160; index++) {
		const offset = Math.floor(index / 2) + Math.floor(index / 10) * 2
		const startHour = 8 + Math.floor(random() * 8)
		const hours = Math.round((0.5 + random() * 3.5) * 4) / 4
		const date = day(offset)
		const end = new Date(Date.parse(`${date}T${String(startHour).padStart(2, '0')}:00:00Z`) + hours * 3_600_000)
		entries.push({
			[idOf(t, 'Task')]: tasks[index % tasks.length] ?? 'Work',
			[idOf(t, 'Project')]: [projectRows[Math.floor(random() * projectRows.length)]?.id ?? ''],
			[idOf(t, 'Person')]: person,
			[idOf(t, 'When')]: {
				start: `${date}T${String(startHour).padStart(2, '0')}:00:00Z`,
				end: end.toISOString().replace('.000', ''),
				timeZone: null,
			},
			[idOf(t, 'Hours')]: hours,
			[idOf(t, 'Billable')]: random() > 0.2,
			[idOf(t, 'Tags')]: [entryTags[index % 3] ?? 'Deep work'],
		})
	}
	await insertLocalRows(ctx.db, ctx.orgId, await records(timeEntries.id), entries)

	const i = invoices.properties
	const invoiceStatuses = ['Paid', 'Paid', 'Sent', 'Overdue', 'Draft'] as const
	await insertLocalRows(
		ctx.db,
		ctx.orgId,
		await records(invoices.id),
		Array.from({ length: 20 }, (_, index): RowValues => {
			const status = invoiceStatuses[index % invoiceStatuses.length] ?? 'Draft'
			const issued = index * 9
			return {
				// Numbered as an earlier tool did: the invoices written here start at INV-{YYYY}-0001, and
				// the two must not read alike once this database is mapped as the invoices database.
				[idOf(i, 'Number')]: `#${1001 + index}`,
				[idOf(i, 'Client')]: [clientRows[index % clientRows.length]?.id ?? ''],
				[idOf(i, 'Amount')]: Math.round((800 + random() * 7200) * 100) / 100,
				[idOf(i, 'Issued')]: { start: day(issued), end: null, timeZone: null },
				[idOf(i, 'Due')]: { start: day(issued + 30), end: null, timeZone: null },
				[idOf(i, 'Status')]: status,
				[idOf(i, 'Paid')]: status === 'Paid',
				[idOf(i, 'Attachments')]: [],
			}
		}),
	)
	const e = enquiries.properties
	await insertLocalRows(
		ctx.db,
		ctx.orgId,
		await records(enquiries.id),
		enquiryNames.map(([name, service], index): RowValues => {
			const slug = name.toLowerCase().replace(/[^a-z]+/g, '.')
			return {
				[idOf(e, 'Name')]: name,
				[idOf(e, 'Message')]: `${name} would like help with ${service.toLowerCase()}.`,
				[idOf(e, 'Budget')]: 3000 + index * 1500,
				[idOf(e, 'Service')]: service,
				[idOf(e, 'Interests')]: index % 2 === 0 ? ['Website'] : ['Branding', 'SEO'],
				[idOf(e, 'Status')]: index === 0 ? 'Replied' : 'New',
				[idOf(e, 'Preferred start')]: { start: day(20 + index * 7), end: null, timeZone: null },
				[idOf(e, 'Newsletter')]: index % 2 === 1,
				[idOf(e, 'Website')]: null,
				[idOf(e, 'Email')]: `${slug}@mail.example`,
				[idOf(e, 'Phone')]: null,
				[idOf(e, 'Assignee')]: person,
				[idOf(e, 'Client')]: index === 0 ? [clientRows[0]?.id ?? ''] : [],
				[idOf(e, 'Attachments')]: [],
			}
		}),
	)
	return { ...workspace, databasesCount: 5 }
}
