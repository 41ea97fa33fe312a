import type { Page } from 'playwright-core'
import type { createHttpApi } from './http-api.ts'
import { waitForMail } from './mail.ts'

// The portals module in the screenshots (screenshots.ts): Ada's portal on the sample workspace
// (Projects, Invoices and the client's own row, shared by the Client relation), with her logo
// and an accent colour; three members of two companies; and Ana of Acme Ltd signed in by her
// mailed link, whose session the member pictures use. The four views are the same Projects page
// with its view switched through the setup before each picture.

type HttpApi = ReturnType<typeof createHttpApi>
type Viewport = 'desktop' | 'phone'
type Theme = 'light' | 'dark'
type View = 'table' | 'list' | 'board' | 'gallery'

type Property = { id: string; name: string; type: string }
type Database = { id: string; name: string; properties: Property[] }

const setupBase = '/dashboard/local_portal/setup'

export type SeededPortal = {
	portalId: string
	name: string
	slug: string
	/** Ana's session, as the portal keeps it in the browser's storage. */
	session: { token: string; expiresAt: string }
	row: { id: string; title: string }
	/** Saves the setup with the Projects page in `view`. */
	setView: (view: View) => Promise<void>
}

export async function seedPortal(
	api: HttpApi,
	token: string,
	dataDir: string,
	logoBlobId: string,
): Promise<SeededPortal> {
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const byName = (name: string) => {
		const found = databases.find((database) => database.name === name)
		if (!found) {
			throw new Error(`the sample has no ${name} database`)
		}
		return found
	}
	const prop = (database: Database, name: string) => {
		const found = database.properties.find((property) => property.name === name)
		if (!found) {
			throw new Error(`${database.name} has no ${name}`)
		}
		return found.id
	}
	const clients = byName('Clients')
	const projects = byName('Projects')
	const invoices = byName('Invoices')
	const enquiries = byName('Enquiries')
	// A published form on Enquiries (seedForms made several), filled in from the portal as the member.
	const forms = await api.callOk<{ id: string; name: string; published: boolean; databaseId: string }[]>(
		'/dashboard/forms',
		{ token },
	)
	const form = forms.find((one) => one.published && one.databaseId === enquiries.id && one.name === 'Contact us')
	const name = 'Analytical Engines'
	const slug = 'analytical-engines'
	const projectsPage = (view: View) => ({
		id: 'projects',
		title: 'Projects',
		databaseId: projects.id,
		properties: ['Client', 'Status', 'Budget', 'Timeline', 'Tags'].map((one) => prop(projects, one)),
		view,
		groupBy: view === 'board' ? prop(projects, 'Status') : null,
		coverProperty: null,
		sort: [{ property: prop(projects, 'Timeline'), direction: 'ascending' as const }],
		filterable: [prop(projects, 'Status'), prop(projects, 'Tags')],
		isSearchable: true,
		rule: { kind: 'company' as const, property: prop(projects, 'Client') },
		showContent: false,
	})
	const setup = (view: View, id?: string) => ({
		...(id ? { id } : {}),
		name,
		slug,
		branding: {
			logoBlobId,
			accentColor: '#0f766e',
			backgroundColor: null,
			theme: 'system' as const,
			welcome: 'Your projects and invoices with Analytical Engines, always up to date.',
		},
		access: {
			companiesDatabaseId: clients.id,
			membersDatabaseId: null,
			membersEmailProperty: null,
			allowPasswords: true,
		},
		forms: form ? [{ formId: form.id, linkProperty: prop(enquiries, 'Client') }] : [],
		showInvoices: true,
		pages: [
			projectsPage(view),
			{
				id: 'invoices',
				title: 'Invoices',
				databaseId: invoices.id,
				properties: ['Amount', 'Issued', 'Due', 'Status'].map((one) => prop(invoices, one)),
				view: 'table' as const,
				groupBy: null,
				coverProperty: null,
				sort: [{ property: prop(invoices, 'Issued'), direction: 'descending' as const }],
				filterable: [prop(invoices, 'Status')],
				isSearchable: true,
				rule: { kind: 'company' as const, property: prop(invoices, 'Client') },
				showContent: false,
			},
			{
				id: 'company',
				title: 'Your company',
				databaseId: clients.id,
				properties: ['Email', 'Phone', 'Website'].map((one) => prop(clients, one)),
				view: 'list' as const,
				groupBy: null,
				coverProperty: null,
				sort: [],
				filterable: [],
				isSearchable: false,
				rule: { kind: 'company_row' as const },
				showContent: false,
			},
		],
	})
	const portal = await api.callOk<{ id: string }>(`${setupBase}/update_setup`, { token, json: setup('table') })
	await api.callOk('/dashboard/local_portal/invitations/bulk_invite', {
		token,
		json: {
			portalId: portal.id,
			members: [
				{ email: 'ana@acme.example', name: 'Ana Lima', company: 'Acme Ltd' },
				{ email: 'ben@acme.example', name: 'Ben Ode', company: 'Acme Ltd' },
				{ email: 'cleo@globex.example', name: 'Cleo Park', company: 'Globex Corporation' },
			],
			sendEmails: true,
		},
	})
	const mail = await waitForMail(dataDir, 'ana@acme.example')
	const link = new URL(mail.links.find((href) => href.includes(`/p/${slug}/sign-in`)) ?? '')
	const session = await api.callOk<{ token: string; expiresAt: string }>(`/api/portal/${slug}/auth/verify`, {
		json: { token: link.searchParams.get('token') },
	})
	const rows = await api.callOk<{ rows: { id: string; title: string }[] }>(
		`/api/portal/${slug}/pages/projects/rows?limit=5`,
		{ token: session.token },
	)
	const [row, second] = rows.rows
	if (!row || !second) {
		throw new Error('Ana sees fewer than two projects')
	}
	// Acme's two sample projects both start "Not started": one moves on, so the board has two columns
	// (a member's board shows only the statuses their own rows use).
	await api.callOk(`/dashboard/local/databases/${projects.id}/rows/${second.id}`, {
		token,
		method: 'PATCH',
		json: { values: { [prop(projects, 'Status')]: 'In progress' } },
	})
	return {
		portalId: portal.id,
		name,
		slug,
		session,
		row,
		setView: async (view) => {
			await api.callOk(`${setupBase}/update_setup`, { token, json: setup(view, portal.id) })
		},
	}
}

/** Ana signed in: her session put where the portal keeps it, then `path` opened. */
function asMember(portal: SeededPortal, path: string, ready: (page: Page) => Promise<void>) {
	return async (page: Page) => {
		await page.getByRole('heading', { level: 1, name: `Sign in to ${portal.name}` }).waitFor()
		await page.evaluate(
			([key, value]) => window.localStorage.setItem(key as string, value as string),
			[`blocksmith.portal-session.${portal.slug}`, JSON.stringify(portal.session)],
		)
		await page.goto(path)
		await ready(page)
	}
}

const viewCaptions: Record<View, string> = {
	table: 'a table with sortable headers, search and filters',
	list: 'a list, each row with its filled properties',
	board: 'a board by Status, a column per status her rows have (a member never sees the others’ names)',
	gallery: 'a gallery of cards',
}

export function portalShots(portal: SeededPortal) {
	const base = `/p/${portal.slug}`
	const signIn = `${base}/sign-in`
	const viewShot = (view: View) => ({
		name: `portal-view-${view}`,
		caption: `Portal, as Ana of Acme Ltd: Projects as ${viewCaptions[view]} (the same page, its view switched in the setup), only Acme’s rows`,
		path: signIn,
		isSignedIn: false,
		ready: asMember(portal, `${base}/projects`, async (page) => {
			await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor()
			await page.getByRole('link', { name: portal.row.title, exact: true }).first().waitFor()
		}),
		prepare: async (page: Page) => {
			await portal.setView(view)
			await page.reload()
			await page.getByRole('link', { name: portal.row.title, exact: true }).first().waitFor()
			if (view === 'table') {
				await page.getByRole('table', { name: 'Projects' }).waitFor()
			} else if (view === 'board') {
				await page.getByRole('region', { name: 'In progress' }).waitFor()
			}
		},
		...(view === 'list'
			? { viewports: ['desktop', 'phone'] as Viewport[], phoneThemes: ['light', 'dark'] as Theme[] }
			: {}),
	})
	return [
		{
			name: 'portals',
			caption:
				'Portals → setup of Ada’s portal: branding (logo, colours, light or dark), the pages with their rules, access, a form and invoices for members, freshness, the danger zone',
			path: '/portals',
			isSignedIn: true,
			ready: async (page: Page) => {
				await page.getByRole('heading', { level: 1, name: portal.name }).waitFor()
				await page.getByRole('img', { name: 'Logo preview' }).waitFor()
				await page.getByRole('list', { name: 'Pages' }).getByText('Your company').waitFor()
			},
		},
		{
			name: 'portal-members',
			caption:
				'Portal → Members: three lines pasted and previewed before sending (one not an e-mail address), and the members with their company, status and last visit',
			path: `/portals/${portal.portalId}/members`,
			isSignedIn: true,
			ready: async (page: Page) => {
				await page.getByRole('list', { name: 'Members' }).getByText('cleo@globex.example').waitFor()
			},
			prepare: async (page: Page) => {
				await page
					.getByLabel('Members to invite')
					.fill(
						'dora@acme.example, Dora Senn, Acme Ltd\neve@globex.example, Eve Ito, Globex Corporation\nfrank(at)initech, Frank Hall, Initech',
					)
				await page.getByRole('table', { name: 'Preview of the members to invite' }).getByRole('row').nth(3).waitFor()
			},
		},
		{
			name: 'portal-sign-in',
			caption: 'Portal sign-in for members: the portal’s logo, name and welcome, a link by e-mail or a password',
			path: signIn,
			isSignedIn: false,
			ready: async (page: Page) => {
				await page.getByRole('heading', { level: 1, name: `Sign in to ${portal.name}` }).waitFor()
				await page.getByRole('button', { name: 'Send me a sign-in link' }).waitFor()
			},
			viewports: ['desktop', 'phone'] as Viewport[],
		},
		{
			name: 'portal-home',
			caption:
				'Portal home, as Ana of Acme Ltd: her company, the welcome text and her pages (a built-in workspace has no sync, so no “updated” line)',
			path: signIn,
			isSignedIn: false,
			ready: asMember(portal, `${base}/`, async (page) => {
				await page.getByRole('heading', { level: 1, name: 'Welcome, Ana Lima' }).waitFor()
			}),
		},
		...(['table', 'list', 'board', 'gallery'] as const).map(viewShot),
		{
			name: 'portal-row',
			caption: `Portal row page, as Ana: ${portal.row.title} with its properties; its client links to the client’s page inside the portal`,
			path: signIn,
			isSignedIn: false,
			ready: asMember(portal, `${base}/projects/${encodeURIComponent(portal.row.id)}`, async (page) => {
				await page.getByRole('heading', { level: 1, name: portal.row.title }).waitFor()
				await page.getByRole('link', { name: 'Acme Ltd' }).waitFor()
			}),
		},
	]
}
