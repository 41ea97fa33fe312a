import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import PostalMime from 'postal-mime'
import { extractText } from 'unpdf'
import { assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'
import { pdfPageToPng } from '../../pdf-image.ts'
import {
	eventually,
	type FakeStripeProcess,
	type OwnServer,
	startFakeStripeProcess,
	startOwnServer,
	toast,
} from '../billing/billing-steps.ts'
import { blankA4Pdf, logoPng, pngSize, selectOptionMatching } from './invoice-steps.ts'

// Issue 17's whole story, as an owner does it in the app: the company's settings with a logo
// and two VAT rates, the sample workspace's Invoices database mapped as suggested, an invoice for
// a client row with three Projects rows, two free lines and a discount, previewed in each design,
// finalized (INV-YYYY-0001), its PDF downloaded and drawn, sent (the .eml has the PDF), opened
// signed out and paid on the fake Stripe's Checkout, "Paid" (and the Paid box) in its row, a
// credit note for one line, and a monthly series from today whose first invoice is there today.
// Only the account and the sample workspace are made through the API.

const browser = useBrowser()

const year = new Date().getUTCFullYear()
const today = new Date().toISOString().slice(0, 10)
const number = `INV-${year}-0001`
const creditNumber = `CN-${year}-0001`

// The figures, by hand (decision 031: line nets rounded to the cent; a percent discount is one
// allowance per VAT rate; VAT once per rate on the discounted nets, half up):
//   19 %: Website redesign 2,500.00 + Brand guidelines 4,000.00 + SEO audit 11,000.00 (the
//         sample's budgets) = 17,500.00; discount 10 % = 1,750.00; taxable 15,750.00; VAT 2,992.50
//    7 %: Hosting 12 × 9.99 = 119.88 + Workshop 1.5 × 480.00 = 720.00 → 839.88; discount
//         10 % = 83.988 → 83.99; taxable 755.89; VAT 52.9123 → 52.91
//   net 18,339.88 − discounts 1,833.99 = 16,505.89; VAT 3,045.41; total 19,551.30
// Credit note for the Hosting line (the discount goes with it): 119.88 − 11.99 (11.988) =
// 107.89; VAT 7 % 7.5523 → 7.55; total 115.44.
const total = '€19,551.30'
const projects = ['Website redesign', 'Brand guidelines', 'SEO audit']

type Invoice = {
	id: string
	number: string | null
	status: string
	issueDate: string
	rowId: string | null
	publicToken: string
	recurrenceId: string | null
	total: { decimal: string }
	credited: { decimal: string }
}

test('the invoices story: settings with a logo → an invoice from Projects rows → previewed, finalized, downloaded, sent, paid online → Paid in its row → credit note → recurring from today', async () => {
	const stripe: FakeStripeProcess = await startFakeStripeProcess()
	let server: OwnServer | undefined
	const contexts: BrowserContext[] = []
	try {
		server = await startOwnServer({ STRIPE_API_BASE_URL: stripe.url })
		const { api, baseUrl } = server
		const owner = await api.signUp({ name: 'Ines Invoicer' })
		await api.callOk('/dashboard/workspaces/sample', { token: owner.token, method: 'POST' })
		const call = <T>(path: string) => api.callOk<T>(path, { token: owner.token })

		const ownerTab = await newPage(browser(), { account: owner, baseUrl })
		contexts.push(ownerTab.context)
		const { page } = ownerTab

		await setUpCompany(page, stripe.apiKey)
		await mapInvoicesDatabase(page)

		// A new invoice: the client is a row of the sample's Clients database.
		await page.goto('/invoices')
		await page.getByRole('button', { name: 'New invoice' }).click()
		await page.getByRole('dialog', { name: 'New invoice' }).getByRole('button', { name: 'Create the draft' }).click()
		await page.getByRole('heading', { level: 1, name: 'Draft invoice' }).waitFor()
		const invoiceId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '')
		const client = page.getByRole('group', { name: 'Client' })
		await client.getByRole('button', { name: 'From a workspace row' }).click()
		await client.getByLabel('Clients database').selectOption({ label: 'Clients' })
		await client.getByLabel('Client row').locator('option', { hasText: 'Acme Ltd' }).waitFor({ state: 'attached' })
		await client.getByLabel('Client row').selectOption({ label: 'Acme Ltd' })

		await addProjectLines(page)
		await addFreeLine(page, 4, { description: 'Hosting', quantity: '12', unit: 'months', unitPrice: '9.99' })
		await addFreeLine(page, 5, { description: 'Workshop', quantity: '1.5', unit: 'days', unitPrice: '480.00' })
		await page.getByRole('button', { name: 'Add a discount' }).click()
		await page.getByLabel('Discount 1 (%)').fill('10')
		await page.getByLabel('Discount 1: reason').fill('Loyalty')

		const totals = page.getByRole('region', { name: 'Totals' })
		await totals.getByText(total, { exact: true }).waitFor()
		assert.deepEqual(await totalsRows(page), [
			['Net', '€18,339.88'],
			['Discounts', '−€1,833.99'],
			['VAT 19 % on €15,750.00', '€2,992.50'],
			['VAT 7 % on €755.89', '€52.91'],
			['Total', total],
		])
		await page.getByRole('status').getByText('Saved').waitFor()

		await previewEachDesign(page)

		await page.getByRole('button', { name: 'Finalize', exact: true }).click()
		const finalize = page.getByRole('alertdialog', { name: 'Finalize this invoice?' })
		await finalize.getByText(`(${number})`).waitFor()
		await finalize.getByRole('button', { name: 'Finalize', exact: true }).click()
		await page.getByRole('heading', { level: 1, name: `Invoice ${number}` }).waitFor()
		const finalized = await call<Invoice>(`/dashboard/local_invoice/invoices/${invoiceId}`)
		assert.equal(finalized.number, number)
		assert.equal(finalized.total.decimal, '19551.30')

		await downloadAndLookAtPdf(page)

		// Sent from the dialog, to the client row's address.
		const actions = page.getByRole('region', { name: 'Invoice actions' })
		await actions.getByRole('button', { name: 'Send', exact: true }).click()
		const send = page.getByRole('dialog', { name: `Send ${number}` })
		assert.equal(await send.getByLabel('To').inputValue(), 'billing@acmeltd.example')
		await send.getByRole('button', { name: 'Send', exact: true }).click()
		await send.waitFor({ state: 'detached' })
		const mail = await server.waitForMail('billing@acmeltd.example', (one) => one.subject.includes(number))
		const parsed = await PostalMime.parse(await readFile(mail.file))
		const attached = parsed.attachments.find((attachment) => attachment.filename === `${number}.pdf`)
		assert.equal(attached?.mimeType, 'application/pdf')
		const attachedText = await pdfText(new Uint8Array(attached?.content as ArrayBuffer))
		assert.ok(attachedText.includes(number) && attachedText.includes('19,551.30'), attachedText)
		const link = mail.links.find((href) => href.startsWith(`${baseUrl}/i/`))
		assert.equal(link, `${baseUrl}/i/${finalized.publicToken}`)

		// The client, signed out, opens the link and pays on the fake Stripe's Checkout.
		const visitor = await newPage(browser(), { baseUrl })
		contexts.push(visitor.context)
		await payOnline(visitor.page, link, stripe.url)

		// Paid: on the invoice, and in its row of the Invoices database (written through the queue).
		await page.reload()
		await page.getByRole('heading', { level: 1, name: `Invoice ${number}` }).waitFor()
		const badge = page
			.getByRole('heading', { level: 1, name: `Invoice ${number}` })
			.locator('xpath=following-sibling::*[1]')
		assert.equal(await badge.textContent(), 'Paid')
		await page.goto('/invoices/database')
		const ourRow = page
			.getByRole('table', { name: 'Rows of the invoices database' })
			.getByRole('row')
			.filter({ has: page.getByRole('link', { name: number, exact: true }) })
		await eventually('the row says Paid', async () => {
			if ((await ourRow.getByRole('cell').nth(3).textContent()) === 'Paid') {
				return true
			}
			await page.reload()
			await ourRow.waitFor()
			return false
		})
		assert.deepEqual(await ourRow.getByRole('cell').allTextContents(), [
			number,
			'Acme Ltd',
			'19551.3',
			'Paid',
			`${number}Paid`,
		])
		const paid = await call<Invoice>(`/dashboard/local_invoice/invoices/${invoiceId}`)
		assert.equal(paid.status, 'paid')
		assert.ok(paid.rowId, 'the invoice is kept in a row')
		const row = await workspaceRow(call, paid.rowId)
		assert.equal(row.values.Status, 'Paid')
		assert.equal(row.values.Paid, true)

		// A credit note for the Hosting line.
		await page.goto(`/invoices/${invoiceId}`)
		await actions.getByRole('button', { name: 'Credit note' }).click()
		const credit = page.getByRole('dialog', { name: `Credit note for ${number}` })
		await credit.getByRole('radio', { name: 'Some lines' }).check()
		await credit.getByRole('checkbox', { name: 'Credit Hosting' }).click()
		const creditTotal = credit.getByText(/^Credit total:/)
		await creditTotal.waitFor()
		assert.equal(await creditTotal.textContent(), 'Credit total: €115.44 (€7.55 VAT)')
		await credit.getByLabel('Reason').fill('Hosting moved to the client’s own account')
		await credit.getByRole('button', { name: 'Issue credit note' }).click()
		await toast(page, `Credit note ${creditNumber} issued.`).waitFor()
		const credited = await call<Invoice>(`/dashboard/local_invoice/invoices/${invoiceId}`)
		assert.equal(credited.credited.decimal, '115.44')

		// Monthly from today: today's invoice is there as soon as the series is.
		await actions.getByRole('button', { name: 'Make recurring' }).click()
		const repeat = page.getByRole('dialog', { name: `Repeat ${number}` })
		await repeat.getByLabel('First invoice on').fill(today)
		await repeat.getByLabel('Each invoice').selectOption('draft')
		await repeat.getByRole('button', { name: 'Make recurring' }).click()
		await toast(page, /^Every month; the next invoice on /).waitFor()
		await page.goto('/invoices/recurring')
		const series = page.getByRole('table', { name: 'Recurring invoices' }).getByRole('row').nth(1)
		await series.getByRole('link', { name: 'Acme Ltd' }).waitFor()
		assert.equal(await series.getByRole('cell').nth(4).textContent(), '1')
		const list = await call<{ invoices: Invoice[] }>('/dashboard/local_invoice/invoices?limit=50')
		const note = list.invoices.find((one) => one.number === creditNumber)
		assert.equal(note?.total.decimal, '-115.44')
		const produced = list.invoices.filter((one) => one.recurrenceId !== null)
		assert.deepEqual(
			produced.map((one) => [one.status, one.issueDate, one.total.decimal]),
			[['draft', today, '19551.30']],
		)
		await page.goto(`/invoices/${produced[0]?.id}`)
		await page.getByRole('heading', { level: 1, name: 'Draft invoice' }).waitFor()
		assert.equal(await page.getByLabel('Issue date').inputValue(), today)

		// The fake's pages have no icon; Chromium asks for one on each (Stripe's have theirs).
		const fakeFavicon = new RegExp(`^console error on ${stripe.url}/favicon\\.ico: ${failedRequest(404).source}`)
		assertNoProblems(visitor.problems, [fakeFavicon])
		assertNoProblems(ownerTab.problems)
	} finally {
		await Promise.all(contexts.map((context) => context.close()))
		await server?.stop()
		await stripe.stop()
	}
})

/** The settings' first profile: company, logo, two VAT rates; then the company's Stripe account. */
async function setUpCompany(page: Page, stripeKey: string): Promise<void> {
	await page.goto('/invoices/settings')
	await page.getByRole('heading', { level: 2, name: 'Set up your company' }).waitFor()
	const form = page.getByRole('form', { name: 'New profile' })
	await form.getByLabel(/^Legal name/).fill('Ironwood Studio GmbH')
	await form.getByLabel('Address', { exact: true }).fill('Torstraße 1')
	await form.getByLabel('Postcode', { exact: true }).fill('10115')
	await form.getByLabel('City', { exact: true }).fill('Berlin')
	await form.getByLabel(/^Country/).selectOption('DE')
	await form.getByLabel('VAT number', { exact: true }).fill('DE123456789')
	await form.getByLabel('E-mail', { exact: true }).fill('billing@ironwood.example')
	await form.getByLabel('Logo file').setInputFiles({
		name: 'ironwood.png',
		mimeType: 'image/png',
		buffer: logoPng(240, 80, [31, 90, 60]),
	})
	await form.getByRole('img', { name: 'Logo preview' }).waitFor()
	for (const [index, [name, rate]] of [
		['VAT 19 %', '19'],
		['VAT 7 %', '7'],
	].entries()) {
		await form.getByRole('button', { name: 'Add a tax rate' }).click()
		await form.getByLabel(`Name of rate ${index + 1}`).fill(name as string)
		await form.getByLabel(`Rate ${index + 1} (%)`).fill(rate as string)
	}
	await page.getByRole('toolbar', { name: 'Save profile' }).getByRole('button', { name: 'Save' }).click()
	await toast(page, 'Profile created').waitFor()
	await page.getByRole('heading', { level: 2, name: 'Ironwood Studio GmbH' }).waitFor()
	await page
		.getByRole('form', { name: 'Profile Ironwood Studio GmbH' })
		.getByRole('img', { name: 'Logo preview' })
		.waitFor()

	await page.getByLabel('Stripe secret key').fill(stripeKey)
	await page.getByRole('button', { name: 'Connect Stripe' }).click()
	await page.getByText('Test mode').waitFor()
}

/** /invoices/database: the sample's Invoices database, with the mapping it suggests, saved as is. */
async function mapInvoicesDatabase(page: Page): Promise<void> {
	await page.goto('/invoices/database')
	const form = page.getByRole('form', { name: 'Invoices database mapping' })
	await selectOptionMatching(form.getByLabel('Database'), /^Invoices \(/)
	await form.getByRole('button', { name: 'Save mapping' }).click()
	await toast(page, 'Invoices now holds your invoices.').waitFor()
	await page.getByRole('heading', { level: 2, name: 'Invoices', exact: true }).waitFor()
}

/** "Add from rows": three Projects rows, their name and budget as the line, at the default 19 %. */
async function addProjectLines(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Add from rows' }).click()
	const dialog = page.getByRole('dialog', { name: 'Add lines from rows' })
	await dialog.getByLabel('Database').selectOption({ label: 'Projects' })
	// The suggestion: the title as description, Budget as the price, no quantity (1 each), no unit.
	const chosen = async (label: string | RegExp) =>
		dialog
			.getByLabel(label, { exact: true })
			.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)
	assert.deepEqual(
		[await chosen(/^Description/), await chosen(/^Unit price/), await chosen('Quantity'), await chosen('Unit')],
		['Name', 'Budget', 'None', 'None'],
	)
	for (const project of projects) {
		await dialog.getByRole('checkbox', { name: project, exact: true }).click()
	}
	await dialog.getByRole('button', { name: 'Add 3 lines' }).click()
	await dialog.waitFor({ state: 'detached' })
	for (const [index, project] of projects.entries()) {
		const line = page.getByRole('listitem', { name: `Line ${index + 1}`, exact: true })
		assert.equal(await line.getByLabel('Description').inputValue(), project)
		assert.equal(await line.getByLabel('Quantity').inputValue(), '1')
	}
}

async function addFreeLine(
	page: Page,
	n: number,
	line: { description: string; quantity: string; unit: string; unitPrice: string },
): Promise<void> {
	await page.getByRole('button', { name: 'Add a line' }).click()
	const item = page.getByRole('listitem', { name: `Line ${n}`, exact: true })
	await item.getByLabel('Description').fill(line.description)
	await item.getByLabel('Quantity').fill(line.quantity)
	await item.getByLabel('Unit', { exact: true }).fill(line.unit)
	await item.getByLabel('Unit price (EUR)').fill(line.unitPrice)
	await item.getByLabel('Tax rate').selectOption({ label: 'VAT 7 %' })
}

/** The totals block as [label, figure] pairs. */
async function totalsRows(page: Page): Promise<string[][]> {
	const texts = await page.getByRole('region', { name: 'Totals' }).locator('dt, dd').allTextContents()
	const rows: string[][] = []
	for (let at = 0; at < texts.length; at += 2) {
		rows.push([texts[at] ?? '', texts[at + 1] ?? ''])
	}
	return rows
}

/** Preview: this invoice's PDF, then each of the three designs. */
async function previewEachDesign(page: Page): Promise<void> {
	await page.getByRole('button', { name: 'Preview', exact: true }).click()
	const preview = page.getByRole('dialog', { name: 'Preview' })
	await preview.locator('iframe[title="Invoice (PDF)"]').waitFor()
	await preview.getByRole('tab', { name: 'The designs' }).click()
	for (const design of ['Classic', 'Modern', 'Compact']) {
		await preview
			.getByRole('tablist', { name: 'Designs' })
			.getByRole('tab', { name: new RegExp(`^${design}`) })
			.click()
		await preview.locator(`iframe[title="${design} design preview (PDF)"]`).waitFor()
	}
	await page.keyboard.press('Escape')
	await preview.waitFor({ state: 'detached' })
}

async function pdfText(pdf: Uint8Array): Promise<string> {
	// A copy: PDF.js takes the bytes it is given over (their buffer is left empty).
	const { text } = await extractText(pdf.slice(), { mergePages: true })
	return text
}

/** Download → PDF: the file the browser saves, its text, and its first page drawn beside a blank one. */
async function downloadAndLookAtPdf(page: Page): Promise<void> {
	const downloaded = page.waitForEvent('download')
	await page.getByRole('button', { name: 'Download', exact: true }).click()
	await page.getByRole('menuitem', { name: 'PDF', exact: true }).click()
	const download = await downloaded
	assert.equal(download.suggestedFilename(), `${number}.pdf`)
	const pdf = new Uint8Array(await readFile(await download.path()))
	const text = await pdfText(pdf)
	for (const expected of [
		number,
		'Ironwood Studio GmbH',
		'Acme Ltd',
		...projects,
		'Hosting',
		'Workshop',
		'19,551.30',
	]) {
		assert.ok(text.includes(expected), `the PDF lacks "${expected}": ${text}`)
	}
	const png = await pdfPageToPng(browser(), pdf)
	const blank = await pdfPageToPng(browser(), blankA4Pdf())
	// A4 at 144 dpi; a page with a logo, a table and text compresses far worse than a white one.
	assert.deepEqual(pngSize(png), { width: 1191, height: 1684 })
	assert.deepEqual(pngSize(blank), pngSize(png))
	assert.ok(png.length > blank.length * 5, `the page looks blank: ${png.length} bytes, a blank one ${blank.length}`)
	// To look at the page oneself: INVOICE_STORY_PNG=/tmp/invoice.png keeps the drawing there.
	if (process.env.INVOICE_STORY_PNG) {
		const { writeFile } = await import('node:fs/promises')
		await writeFile(process.env.INVOICE_STORY_PNG, png)
	}
}

/** The public page, signed out: Pay → the fake Stripe's Checkout → back, paid. */
async function payOnline(page: Page, link: string, stripeUrl: string): Promise<void> {
	await page.goto(link)
	await page.getByRole('heading', { level: 1, name: `Invoice ${number}` }).waitFor()
	await page.getByText('Amount due').waitFor()
	await page.getByRole('button', { name: `Pay ${total}` }).click()
	await page.waitForURL((url) => url.origin === stripeUrl && url.pathname.startsWith('/checkout/'))
	await page.getByText(total).waitFor()
	await page.getByRole('button', { name: 'Pay' }).click()
	await page.waitForURL((url) => url.pathname === new URL(link).pathname)
	await page.getByText('Paid — thank you').waitFor()
}

type WorkspaceRow = { id: string; values: Record<string, unknown> }

/** The row of the sample's Invoices database, its values by property name. */
async function workspaceRow(call: <T>(path: string) => Promise<T>, rowId: string): Promise<WorkspaceRow> {
	const databases = await call<{ id: string; name: string }[]>('/dashboard/local/databases')
	const invoices = databases.find((database) => database.name === 'Invoices')
	assert.ok(invoices, 'the sample has an Invoices database')
	const schema = await call<{ properties: { id: string; name: string }[] }>(`/dashboard/local/databases/${invoices.id}`)
	const { rows } = await call<{ rows: WorkspaceRow[] }>(
		`/dashboard/local/databases/${invoices.id}/rows?search=${encodeURIComponent(number)}`,
	)
	const row = rows.find((candidate) => candidate.id === rowId)
	assert.ok(row, `no row ${rowId} among ${rows.map((candidate) => candidate.id).join(', ')}`)
	const names = new Map(schema.properties.map((property) => [property.id, property.name]))
	return {
		id: row.id,
		values: Object.fromEntries(Object.entries(row.values).map(([id, value]) => [names.get(id) ?? id, value])),
	}
}
