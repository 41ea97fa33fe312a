import type { LogicRule } from '@blocksmith/contracts/form-rules.ts'
import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { FormView } from '../components/form-view.tsx'
import { field, json, makeForm, problem } from './testing.ts'

// The form renderer's conditional logic, prefill links, one answer per browser and what follows a
// submit (message or redirect), against a stubbed fetch.

type Call = { path: string; body: Record<string, unknown> | undefined }

const submitted = (extra: Record<string, unknown> = {}) =>
	json(201, { id: 's1', duplicate: false, confirmationMessage: 'Thanks!', redirectUrl: null, ...extra })

/** Stubs fetch: submissions answer with `onSubmit`, views are taken; returns the submissions sent. */
function serve(onSubmit: () => Response = () => submitted()) {
	const calls: Call[] = []
	vi.stubGlobal(
		'fetch',
		vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
			const url = new URL(String(input), 'http://localhost')
			const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined
			if (url.pathname === '/api/submissions') {
				calls.push({ path: url.pathname, body })
				return onSubmit()
			}
			return json(202, { accepted: 1 })
		}),
	)
	return calls
}

const answersOf = (call: Call | undefined) => (call?.body as { answers?: Record<string, unknown> } | undefined)?.answers

beforeEach(() => {
	Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: vi.fn(() => true) })
})

afterEach(() => {
	Reflect.deleteProperty(navigator, 'sendBeacon')
	window.history.replaceState(null, '', '/')
})

describe('FormView, conditional logic', () => {
	const fields = [
		field('kind', 'select', 'You are', { options: ['A person', 'A company'] }),
		field('company', 'short_text', 'Company name', { required: true }),
	]
	const showCompany: LogicRule = {
		id: 'r1',
		match: 'all',
		conditions: [{ fieldId: 'kind', operator: 'equals', value: 'a company' }],
		action: 'show',
		fieldIds: ['company'],
	}

	it('shows a field while the trigger answer matches, and leaves its answer out once hidden again', async () => {
		const calls = serve()
		const { user } = renderWithUser(<FormView form={makeForm(fields, { logic: [showCompany] })} mode="live" />)

		await user.click(await screen.findByRole('radio', { name: 'A company' }))
		await user.type(screen.getByLabelText(/Company name/), 'Acme')
		expect(screen.getByLabelText(/Company name/)).toHaveAttribute('aria-required', 'true')
		await user.click(screen.getByRole('radio', { name: 'A person' }))
		expect(screen.queryByLabelText(/Company name/)).not.toBeInTheDocument()

		// Required, but hidden: it does not hold the submit up, and what was typed is not sent.
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		expect(answersOf(calls[0])).toEqual({ kind: 'A person' })
	})

	it('sends the answer of a field the rules show', async () => {
		const calls = serve()
		const { user } = renderWithUser(<FormView form={makeForm(fields, { logic: [showCompany] })} mode="live" />)

		await user.click(await screen.findByRole('radio', { name: 'A company' }))
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Fill in this field.')).toBeInTheDocument()
		expect(calls).toHaveLength(0)
		await user.type(screen.getByLabelText(/Company name/), 'Acme')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		expect(answersOf(calls[0])).toEqual({ kind: 'A company', company: 'Acme' })
	})

	it('marks and checks a field as required while a require rule matches', async () => {
		serve()
		const requireCompany: LogicRule = { ...showCompany, action: 'require' }
		const { user } = renderWithUser(
			<FormView
				form={makeForm([fields[0] as PublicField, { ...(fields[1] as PublicField), required: false }], {
					logic: [requireCompany],
				})}
				mode="live"
			/>,
		)
		expect(await screen.findByLabelText('Company name')).not.toHaveAttribute('aria-required')
		await user.click(screen.getByRole('radio', { name: 'A company' }))
		expect(screen.getByLabelText(/Company name/)).toHaveAttribute('aria-required', 'true')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Fill in this field.')).toBeInTheDocument()
	})

	it('applies the rules in preview and fills the message in there', async () => {
		const onSubmit = vi.fn()
		const { user } = renderWithUser(
			<FormView
				form={makeForm(fields, { logic: [showCompany], confirmationMessage: 'Thanks, {Company name}!' })}
				mode="preview"
			/>,
		)
		await user.click(await screen.findByRole('radio', { name: 'A company' }))
		await user.type(screen.getByLabelText(/Company name/), 'Acme')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks, Acme!')).toBeInTheDocument()
		expect(onSubmit).not.toHaveBeenCalled()
	})
})

describe('FormView, prefill links', () => {
	const fields = [
		field('name', 'short_text', 'Name'),
		field('size', 'select', 'Size', { options: ['Small', 'Medium'] }),
		field('count', 'number', 'Count'),
		field('agree', 'checkbox', 'Agree'),
		field('tags', 'multi_select', 'Tags', { options: ['Red', 'Blue'] }),
		field('day', 'date', 'Day'),
		field('source', 'short_text', 'Source', { hidden: true, param: 'utm_source' }),
	]

	it('fills visible fields and sends hidden ones without showing them', async () => {
		window.history.replaceState(
			null,
			'',
			'/forms/f1?name=Ada&size=medium&count=3.5&agree=yes&tags=blue,%20red,green&day=2025-03-04&utm_source=news',
		)
		const calls = serve()
		const { user } = renderWithUser(<FormView form={makeForm(fields)} mode="live" />)

		expect(screen.getByLabelText('Name')).toHaveValue('Ada')
		expect(screen.getByRole('radio', { name: 'Medium' })).toBeChecked()
		expect(screen.getByLabelText('Count')).toHaveValue('3.5')
		expect(screen.getByRole('checkbox', { name: 'Agree' })).toBeChecked()
		expect(screen.queryByLabelText('Source')).not.toBeInTheDocument()
		expect(screen.queryByDisplayValue('news')).not.toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		expect(answersOf(calls[0])).toEqual({
			name: 'Ada',
			size: 'Medium',
			count: 3.5,
			agree: true,
			tags: ['Blue', 'Red'],
			day: { start: '2025-03-04', end: null, timeZone: null },
			source: 'news',
		})
	})

	it('keeps the link value of a hidden field over a saved draft', async () => {
		window.history.replaceState(null, '', '/forms/f1?name=Ada&utm_source=news')
		window.localStorage.setItem(
			'blocksmith.form-draft.f1',
			JSON.stringify({ values: { name: 'Bob', source: 'old' }, idempotencyKey: 'k1', savedAt: Date.now() }),
		)
		const calls = serve()
		const { user } = renderWithUser(<FormView form={makeForm(fields)} mode="live" />)

		// What the visitor typed comes back; the hidden field keeps the link's value.
		expect(screen.getByLabelText('Name')).toHaveValue('Bob')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		expect(answersOf(calls[0])).toMatchObject({ name: 'Bob', source: 'news' })
	})
})

describe('FormView, one answer per browser', () => {
	it('sends the same respondent token after a reload', async () => {
		const calls = serve()
		const form = makeForm([field('name', 'short_text', 'Name')], { oneResponsePer: 'browser' })
		const first = renderWithUser(<FormView form={form} mode="live" />)
		await first.user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		first.unmount()

		const second = renderWithUser(<FormView form={form} mode="live" />)
		await second.user.click(screen.getByRole('button', { name: 'Send' }))
		await waitFor(() => expect(calls).toHaveLength(2))
		const token = calls[0]?.body?.respondentToken
		expect(typeof token).toBe('string')
		expect((token as string).length).toBeGreaterThanOrEqual(16)
		expect(calls[1]?.body?.respondentToken).toBe(token)
		// A new filling-in all the same.
		expect(calls[1]?.body?.idempotencyKey).not.toBe(calls[0]?.body?.idempotencyKey)
	})

	it('sends no token when the form does not ask for one', async () => {
		const calls = serve()
		const { user } = renderWithUser(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />)
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await waitFor(() => expect(calls).toHaveLength(1))
		expect(calls[0]?.body).not.toHaveProperty('respondentToken')
	})

	it('shows the already-answered message as the end, with nothing to retry', async () => {
		serve(() => problem(409, 'ALREADY_RESPONDED', 'You have answered this form already.'))
		const form = makeForm([field('name', 'short_text', 'Name')], { oneResponsePer: 'browser' })
		const { user } = renderWithUser(<FormView form={form} mode="live" />)
		await user.type(screen.getByLabelText('Name'), 'Ada')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('You have answered this form already.')).toBeInTheDocument()
		expect(screen.queryByRole('button', { name: /Try again|Send/ })).not.toBeInTheDocument()
		expect(window.localStorage.getItem('blocksmith.form-draft.f1')).toBeNull()
	})

	it('shows a closed form when the submit finds it closed', async () => {
		serve(() => problem(409, 'FORM_CLOSED', 'We have all the answers we need.'))
		const { user } = renderWithUser(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />)
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('We have all the answers we need.')).toBeInTheDocument()
		expect(screen.getByRole('heading', { name: 'This form is closed' })).toBeInTheDocument()
	})
})

describe('FormView, after a submit', () => {
	it("shows the server's filled-in message", async () => {
		serve(() => submitted({ confirmationMessage: 'Thanks, Ada!' }))
		const form = makeForm([field('name', 'short_text', 'Name')], { confirmationMessage: 'Thanks, {Name}!' })
		const { user } = renderWithUser(<FormView form={form} mode="live" />)
		await user.type(screen.getByLabelText('Name'), 'Ada')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks, Ada!')).toBeInTheDocument()
	})

	it('goes to the redirect address, with the draft cleared', async () => {
		const assign = vi.fn()
		vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
		serve(() => submitted({ redirectUrl: 'https://example.com/next?name=Ada' }))
		const { user } = renderWithUser(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />)
		await user.type(screen.getByLabelText('Name'), 'Ada')
		await waitFor(() => expect(window.localStorage.getItem('blocksmith.form-draft.f1')).not.toBeNull())
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await waitFor(() => expect(assign).toHaveBeenCalledWith('https://example.com/next?name=Ada'))
		expect(window.localStorage.getItem('blocksmith.form-draft.f1')).toBeNull()
	})
})

describe('FormView, opened from a client portal', () => {
	const fields = [
		field('name', 'short_text', 'Name', { required: true }),
		field('email', 'email', 'E-mail'),
		field('client', 'relation', 'Client', { required: true, relationDatabaseId: 'db1' }),
	]
	const tokenFor = (payload: Record<string, unknown>) =>
		`${btoa(JSON.stringify(payload)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.signature`

	it('prefills the member’s e-mail, leaves out the field the server links, and sends the identity', async () => {
		const token = tokenFor({ p: 'p1', m: 'm1', f: 'f1', e: 'ada@acme.example', n: null, l: 'p-client', x: 9e9 })
		window.history.replaceState(null, '', `/forms/f1?portal=${token}`)
		const calls = serve()
		const { user } = renderWithUser(<FormView form={makeForm(fields)} mode="live" />)

		expect(screen.getByLabelText('E-mail')).toHaveValue('ada@acme.example')
		expect(screen.queryByText('Client')).not.toBeInTheDocument()
		await user.type(screen.getByLabelText(/^Name/), 'Ada')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		expect(calls[0]?.body?.portalToken).toBe(token)
		expect(answersOf(calls[0])).toEqual({ name: 'Ada', email: 'ada@acme.example' })
	})

	it('ignores a token it cannot read and shows the form as usual', async () => {
		window.history.replaceState(null, '', '/forms/f1?portal=%%%not-base64')
		const calls = serve()
		renderWithUser(<FormView form={makeForm(fields)} mode="live" />)
		expect(screen.getByLabelText('E-mail')).toHaveValue('')
		expect(screen.getAllByText('Client').length).toBeGreaterThan(0)
		expect(calls).toHaveLength(0)
	})
})
