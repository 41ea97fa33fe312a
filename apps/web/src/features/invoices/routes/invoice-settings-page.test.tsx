import { formatNumber } from '@blocksmith/contracts/invoice-numbering.ts'
import type { InvoiceProfile } from '@blocksmith/contracts/invoices.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, test, vi } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi, problem } from '#src/test/mock-api.tsx'
import { today } from '../lib/profile-form.ts'
import { makeProfile } from '../lib/testing.ts'
import { InvoiceSettingsPage } from './invoice-settings-page.tsx'
import { InvoicesPage } from './invoices-page.tsx'

const routes = [
	{ path: '/invoices', Component: InvoicesPage },
	{ path: '/invoices/settings', Component: InvoiceSettingsPage },
]
const settingsPath = '/dashboard/local_invoice/settings'

/** The API with one saved profile; PATCHes answered by `onPatch` (by default: saved as sent). */
function withProfile(
	profile: InvoiceProfile,
	{ role, onPatch }: { role?: 'owner' | 'member'; onPatch?: (body: unknown) => Response } = {},
) {
	return mockApi(
		(call) => {
			if (call.path === settingsPath && call.method === 'GET') {
				return json([profile])
			}
			if (call.path === `${settingsPath}/${profile.id}` && call.method === 'PATCH') {
				return onPatch ? onPatch(call.body) : json({ ...profile, updatedAt: '2026-11-26T10:00:00.000Z' })
			}
			if (call.path === '/dashboard/local_invoice/templates/get_template') {
				return new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } })
			}
			if (call.path === '/dashboard/local_invoice/invoices') {
				return json({ invoices: [], totals: [], nextCursor: null })
			}
			return undefined
		},
		role ? { role } : {},
	)
}

async function openForm() {
	return screen.findByRole('form', { name: 'Profile Acme GmbH' })
}

describe('invoice settings', () => {
	beforeEach(() => {
		// jsdom's Blob cannot become an object URL: the preview's link is a stand-in.
		vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:preview')
		vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined)
	})

	test('the form fills from the saved profile, with the next numbers the server gave', async () => {
		const { calls } = withProfile(makeProfile())
		renderApp(routes, '/invoices/settings')
		const form = await openForm()
		expect(within(form).getByRole('textbox', { name: /^Legal name/ })).toHaveValue('Acme Software GmbH')
		expect(within(form).getByRole('textbox', { name: /^Address/ })).toHaveValue('Hauptstraße 1\nHinterhaus')
		expect(within(form).getByRole('combobox', { name: /^Country/ })).toHaveValue('DE')
		expect(within(form).getByRole('option', { name: 'Germany' })).toBeInTheDocument()
		expect(within(form).getByRole('textbox', { name: /^VAT number/ })).toHaveValue('DE123456789')
		expect(within(form).getByRole('textbox', { name: 'Registration 1 number' })).toHaveValue('12/345/67890')
		expect(within(form).getByRole('combobox', { name: /^Currency/ })).toHaveValue('EUR')
		expect(within(form).getByText('Euro: 2 decimals.')).toBeInTheDocument()
		expect(within(form).getByRole('textbox', { name: 'IBAN' })).toHaveValue('DE89370400440532013000')
		expect(within(form).getByRole('radio', { name: /^Modern/ })).toBeChecked()
		expect(within(form).getByRole('switch', { name: /Round VAT on each line/ })).not.toBeChecked()
		expect(within(form).getByText('Next: INV-2026-0042')).toBeInTheDocument()
		expect(within(form).getByText('Next: CN-2026-0003')).toBeInTheDocument()
		const rates = within(within(form).getByRole('list', { name: 'Tax rates' })).getAllByRole('listitem')
		expect(rates).toHaveLength(2)
		expect(within(rates[1] as HTMLElement).getByRole('textbox', { name: /^Exemption reason of rate 2/ })).toHaveValue(
			'Reverse charge',
		)
		// The chosen design is drawn by the server for this profile and shown from the fetched file.
		expect(await screen.findByTitle('Modern design preview (PDF)')).toHaveAttribute('src', 'blob:preview')
		const preview = calls.find((call) => call.path.endsWith('/templates/get_template'))
		expect(Object.fromEntries(preview?.search ?? [])).toEqual({ template: 'modern', profileId: 'prof1', format: 'pdf' })
		// The profile list names it as the default.
		const list = screen.getByRole('list', { name: 'Profiles' })
		expect(within(list).getByText('Default')).toBeInTheDocument()
	})

	test("the server's 400 lands at the field it names (a tax rate's name, an address line)", async () => {
		const { calls } = withProfile(makeProfile(), {
			onPatch: () =>
				problem(400, 'VALIDATION_FAILED', 'Check the highlighted fields.', [
					{ field: 'taxRates.1.name', message: 'Another rate has this name.' },
					{ field: 'address.lines.1', message: 'Use at most 200 characters.' },
				]),
		})
		const { user } = renderApp(routes, '/invoices/settings')
		const form = await openForm()
		await user.clear(within(form).getByRole('textbox', { name: /^Legal name/ }))
		await user.type(within(form).getByRole('textbox', { name: /^Legal name/ }), 'Acme Software AG')
		await user.click(screen.getByRole('button', { name: 'Save' }))

		const name = within(form).getByRole('textbox', { name: 'Name of rate 2' })
		await waitFor(() => expect(name).toHaveAccessibleDescription('Another rate has this name.'))
		expect(name).toHaveAttribute('aria-invalid', 'true')
		expect(within(form).getByRole('textbox', { name: /^Address/ })).toHaveAccessibleDescription(
			/Use at most 200 characters\./,
		)
		const patch = calls.find((call) => call.method === 'PATCH')
		expect(patch?.body).toMatchObject({
			legalName: 'Acme Software AG',
			address: { lines: ['Hauptstraße 1', 'Hinterhaus'], country: 'DE' },
			taxRates: [
				{ id: 'rate1', rate: '19' },
				{ id: 'rate2', categoryCode: 'AE', exemptionReason: 'Reverse charge' },
			],
			bank: { kind: 'iban', iban: 'DE89370400440532013000' },
			footer: null,
		})
	})

	test('the numbering preview follows the pattern as it is typed, with the rules the server numbers by', async () => {
		const { calls } = withProfile(makeProfile())
		const { user } = renderApp(routes, '/invoices/settings')
		const form = await openForm()
		const pattern = within(form).getByRole('textbox', { name: 'Invoice numbers' })

		await user.clear(pattern)
		await user.type(pattern, 'R{{counter}')
		expect(pattern).toHaveAccessibleDescription(/A counter that restarts every year needs \{YYYY\} or \{YY\}/)

		await user.clear(pattern)
		await user.type(pattern, 'R-{{YY}{{MM}-{{counter:3}')
		await user.selectOptions(
			within(form).getByRole('combobox', { name: /^Invoice numbers:\s*counter restarts/i }),
			'monthly',
		)
		expect(pattern).not.toHaveAttribute('aria-invalid')
		const expected = formatNumber('R-{YY}{MM}-{counter:3}', today(), 1)
		expect(within(form).getByText(`Next: ${expected} (the exact number is shown once saved)`)).toBeInTheDocument()

		// Credit notes of the same shape could repeat an invoice's number.
		const credit = within(form).getByRole('textbox', { name: 'Credit-note numbers' })
		await user.clear(credit)
		await user.type(credit, 'R-{{YY}{{MM}-{{counter:3}')
		expect(credit).toHaveAccessibleDescription(/Make it differ from the invoices’ pattern/)
		await user.click(screen.getByRole('button', { name: 'Save' }))
		expect(calls.some((call) => call.method === 'PATCH')).toBe(false)
	})

	test("after a save the preview gives the server's next number for the new pattern", async () => {
		const saved = makeProfile({
			numbering: {
				invoice: { pattern: 'A-{YYYY}-{counter:5}', reset: 'yearly' },
				creditNote: { pattern: 'CN-{YYYY}-{counter:4}', reset: 'yearly' },
			},
			nextNumbers: { invoice: 'A-2026-00007', creditNote: 'CN-2026-0003' },
			updatedAt: '2026-11-26T10:00:00.000Z',
		})
		const { calls } = withProfile(makeProfile(), { onPatch: () => json(saved) })
		const { user } = renderApp(routes, '/invoices/settings')
		const form = await openForm()
		const pattern = within(form).getByRole('textbox', { name: 'Invoice numbers' })
		await user.clear(pattern)
		await user.type(pattern, 'A-{{YYYY}-{{counter:5}')
		expect(within(form).getByText(/the exact number is shown once saved/)).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Save' }))
		expect(await within(form).findByText('Next: A-2026-00007')).toBeInTheDocument()
		expect(calls.find((call) => call.method === 'PATCH')?.body).toMatchObject({
			numbering: { invoice: { pattern: 'A-{YYYY}-{counter:5}', reset: 'yearly' } },
		})
	})

	test('a page policy that refuses to frame the PDF leaves it to open in a tab or download', async () => {
		withProfile(makeProfile())
		renderApp(routes, '/invoices/settings')
		const frame = await screen.findByTitle('Modern design preview (PDF)')
		expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'invoice-modern.pdf')
		// What Chrome dispatches when frame-src (or default-src) leaves blob: out.
		document.dispatchEvent(Object.assign(new Event('securitypolicyviolation'), { effectiveDirective: 'frame-src' }))
		await waitFor(() => expect(frame).not.toBeInTheDocument())
		expect(screen.getByText(/open the Modern design in its own tab or download it/)).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Open the PDF' })).toHaveAttribute('href', 'blob:preview')
	})

	test('tax rate rows: added with a category explained, its reason asked where the category needs one, removed; checked before sending', async () => {
		const { calls } = withProfile(makeProfile())
		const { user } = renderApp(routes, '/invoices/settings')
		const form = await openForm()
		await user.click(within(form).getByRole('button', { name: 'Add a tax rate' }))
		const rows = () => within(within(form).getByRole('list', { name: 'Tax rates' })).getAllByRole('listitem')
		expect(rows()).toHaveLength(3)
		const third = rows()[2] as HTMLElement
		await user.type(within(third).getByRole('textbox', { name: 'Name of rate 3' }), 'Medical')
		await user.type(within(third).getByRole('textbox', { name: 'Rate 3 (%)' }), '7')
		expect(within(third).queryByRole('textbox', { name: /^Exemption reason/ })).toBeNull()
		await user.selectOptions(within(third).getByRole('combobox', { name: /^Category of rate 3/ }), 'E')
		expect(within(third).getByRole('combobox', { name: /^Category of rate 3/ })).toHaveAccessibleDescription(
			/the law exempts it/,
		)
		expect(within(third).getByRole('textbox', { name: /^Exemption reason of rate 3/ })).toBeInTheDocument()

		// An exempt rate above 0 and no reason: said at the row, nothing sent.
		await user.click(screen.getByRole('button', { name: 'Save' }))
		expect(within(third).getByRole('textbox', { name: 'Rate 3 (%)' })).toHaveAccessibleDescription(
			'Category E has a rate of 0.',
		)
		expect(within(third).getByRole('textbox', { name: /^Exemption reason of rate 3/ })).toHaveAccessibleDescription(
			/Say why no VAT is charged \(category E\)/,
		)
		expect(calls.some((call) => call.method === 'PATCH')).toBe(false)

		await user.clear(within(third).getByRole('textbox', { name: 'Rate 3 (%)' }))
		await user.type(within(third).getByRole('textbox', { name: 'Rate 3 (%)' }), '0')
		await user.type(within(third).getByRole('textbox', { name: /^Exemption reason of rate 3/ }), '§ 4 Nr. 14 UStG')
		await user.click(within(rows()[0] as HTMLElement).getByRole('button', { name: 'Remove rate 1' }))
		expect(rows()).toHaveLength(2)
		await user.click(screen.getByRole('button', { name: 'Save' }))
		await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true))
		const patch = calls.find((call) => call.method === 'PATCH')
		expect(patch?.body).toMatchObject({
			taxRates: [
				{
					id: 'rate2',
					name: 'Reverse charge',
					categoryCode: 'AE',
					rate: '0',
					exemptionReason: 'Reverse charge',
					exemptionReasonCode: 'VATEX-EU-AE',
					isDefault: false,
				},
				{
					name: 'Medical',
					categoryCode: 'E',
					rate: '0',
					exemptionReason: '§ 4 Nr. 14 UStG',
					exemptionReasonCode: null,
					isDefault: false,
				},
			],
		})
	})

	test('a member sees the settings read-only: no save, no new profile, every field disabled', async () => {
		const { calls } = withProfile(makeProfile(), { role: 'member' })
		renderApp(routes, '/invoices/settings')
		const form = await openForm()
		expect(screen.getByText('Only owners and admins change invoice settings.')).toBeInTheDocument()
		expect(within(form).getByRole('textbox', { name: /^Legal name/ })).toBeDisabled()
		expect(within(form).getByRole('textbox', { name: 'Name of rate 1' })).toBeDisabled()
		expect(within(form).getByRole('switch', { name: /Round VAT on each line/ })).toBeDisabled()
		expect(screen.queryByRole('button', { name: 'Save' })).toBeNull()
		expect(screen.queryByRole('button', { name: /New profile/ })).toBeNull()
		expect(screen.queryByRole('button', { name: 'Add a tax rate' })).toBeNull()
		expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull()
		expect(calls.every((call) => call.method === 'GET')).toBe(true)
	})

	test('with a profile, /invoices says the company is set up and leads to it', async () => {
		withProfile(makeProfile())
		const { user } = renderApp(routes, '/invoices')
		await user.click(await screen.findByRole('link', { name: /Review your company/ }))
		expect(await openForm()).toBeInTheDocument()
		expect(screen.queryByText(/Set up your company/)).toBeNull()
	})

	test('with no profile, /invoices says invoices come next and leads an owner to set up the company, which is created', async () => {
		const created = makeProfile({ id: 'prof2', name: 'Solo Studio', legalName: 'Solo Studio', taxRates: [] })
		let profiles: InvoiceProfile[] = []
		const { calls } = mockApi((call) => {
			if (call.path === settingsPath && call.method === 'GET') {
				return json(profiles)
			}
			if (call.path === settingsPath && call.method === 'POST') {
				profiles = [created]
				return json(created, 201)
			}
			if (call.path === '/dashboard/local_invoice/templates/get_template') {
				return new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } })
			}
			if (call.path === '/dashboard/local_invoice/invoices') {
				return json({ invoices: [], totals: [], nextCursor: null })
			}
			return undefined
		})
		const { user } = renderApp(routes, '/invoices')
		expect(await screen.findByRole('heading', { name: 'No invoices yet' })).toBeInTheDocument()
		await user.click(await screen.findByRole('link', { name: /Set up your company/ }))
		const form = await screen.findByRole('form', { name: 'New profile' })
		await user.type(within(form).getByRole('textbox', { name: /^Legal name/ }), 'Solo Studio')
		await user.type(within(form).getByRole('textbox', { name: /^City/ }), 'Lyon')
		await user.selectOptions(within(form).getByRole('combobox', { name: /^Country/ }), 'FR')
		await user.click(screen.getByRole('button', { name: 'Save' }))
		expect(await screen.findByRole('form', { name: 'Profile Solo Studio' })).toBeInTheDocument()
		const post = calls.find((call) => call.method === 'POST')
		expect(post?.body).toMatchObject({
			name: 'Solo Studio',
			legalName: 'Solo Studio',
			address: { lines: [], city: 'Lyon', country: 'FR' },
			currency: 'EUR',
			numbering: { invoice: { pattern: 'INV-{YYYY}-{counter:4}' } },
		})
	})
})
