import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { StrictMode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { FormView } from '../components/form-view.tsx'
import { type Call, field, json, makeForm, mockFetch, problem } from './testing.ts'

// The form renderer in live mode against a stubbed fetch: what it sends, what it shows, and how
// it keeps answers through failures. Preview mode is checked for silence on the network.

const submitted = (confirmationMessage = 'Thanks!') => json(201, { id: 's1', duplicate: false, confirmationMessage })

const everyKind: PublicField[] = [
	field('name', 'short_text', 'Your name', { required: true, helpText: 'As on your passport.' }),
	field('about', 'long_text', 'About you'),
	field('age', 'number', 'Age'),
	field('size', 'select', 'Size', { options: ['S', 'M', 'L'] }),
	field('country', 'select', 'Country', { options: ['FR', 'DE', 'IT', 'ES', 'PT', 'NL', 'BE'] }),
	field('stage', 'status', 'Stage', { options: ['New', 'Done'] }),
	field('tags', 'multi_select', 'Tags', { options: ['a', 'b', 'c'] }),
	field('day', 'date', 'Day'),
	field('meeting', 'date', 'Meeting', { includeTime: true }),
	field('agree', 'checkbox', 'I agree to the terms', { required: true }),
	field('site', 'url', 'Home page'),
	field('email', 'email', 'E-mail'),
	field('phone', 'phone', 'Phone'),
	field('owner', 'people', 'Owner'),
	field('project', 'relation', 'Project', { relationDatabaseId: 'db1' }),
]

/** The public API of a form with people and relation choices; submits answer with `onSubmit`. */
function serve(onSubmit: (call: Call) => Response | Promise<Response> = () => submitted()) {
	return mockFetch((call) => {
		if (call.path === '/api/local/users') {
			return json(200, [
				{ id: 'u1', name: 'Grace Hopper', email: null, avatarUrl: null, type: 'person' },
				{ id: 'u2', name: 'Alan Turing', email: null, avatarUrl: null, type: 'person' },
				{ id: 'b1', name: 'Sync bot', email: null, avatarUrl: null, type: 'bot' },
			])
		}
		if (call.path === '/api/local/databases') {
			const search = call.url.searchParams.get('search')
			const rows = search ? [{ id: 'r2', title: 'Gemini' }] : [{ id: 'r1', title: 'Apollo' }]
			return json(200, [{ id: 'db1', name: 'Projects', properties: [], rows }])
		}
		if (call.path === '/api/submissions') {
			return onSubmit(call)
		}
		if (call.path === '/api/views') {
			return json(202, { accepted: 1 })
		}
		return problem(404, 'NOT_FOUND', `Unexpected ${call.method} ${call.path}`)
	})
}

const submissions = (calls: Call[]) => calls.filter((call) => call.path === '/api/submissions')

let beacons: { url: string; body: Blob }[]

beforeEach(() => {
	beacons = []
	Object.defineProperty(navigator, 'sendBeacon', {
		configurable: true,
		value: vi.fn((url: string, body: Blob) => {
			beacons.push({ url, body })
			return true
		}),
	})
})

/**
 * Fake timers for the retry waits. Testing Library only notices fake timers when a `jest` global
 * can advance them; without it, its helpers wait on a faked setTimeout that never fires.
 */
function useFakeTimers() {
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
	vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) })
}

afterEach(() => {
	vi.useRealTimers()
	Reflect.deleteProperty(navigator, 'sendBeacon')
})

async function beaconEvents() {
	return Promise.all(
		beacons.map(async (beacon) => {
			expect(beacon.url).toBe('/api/views')
			expect(beacon.body.type).toBe('application/json')
			return JSON.parse(await beacon.body.text()) as { events: { formId: string; kind: string }[] }
		}),
	)
}

describe('FormView, live', () => {
	it('renders every field kind with its label and sends each answer in its value shape', async () => {
		const calls = serve(() => submitted('Thanks!\n\nWe will reply within a day.'))
		const { user } = renderWithUser(<FormView form={makeForm(everyKind)} mode="live" />)

		expect(screen.getByRole('heading', { level: 1, name: 'Get in touch' })).toBeInTheDocument()
		await user.type(screen.getByLabelText(/Your name/), 'Ada')
		expect(screen.getByLabelText(/Your name/)).toHaveAttribute('aria-required', 'true')
		expect(screen.getByLabelText(/Your name/)).toHaveAccessibleDescription('As on your passport.')
		await user.type(screen.getByLabelText('About you'), 'Line one{Enter}Line two')
		expect(screen.getByLabelText('About you').tagName).toBe('TEXTAREA')
		await user.type(screen.getByLabelText('Age'), '42.5')
		// Three options: radios; seven: a native select.
		await user.click(within(screen.getByRole('radiogroup', { name: 'Size' })).getByRole('radio', { name: 'M' }))
		await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'IT')
		await user.click(screen.getByRole('radio', { name: 'Done' }))
		const tags = screen.getByRole('group', { name: 'Tags' })
		await user.click(within(tags).getByRole('checkbox', { name: 'a' }))
		await user.click(within(tags).getByRole('checkbox', { name: 'c' }))
		expect(screen.getByLabelText('Day')).toHaveAttribute('type', 'date')
		fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2025-03-04' } })
		expect(screen.getByLabelText('Meeting')).toHaveAttribute('type', 'datetime-local')
		fireEvent.change(screen.getByLabelText('Meeting'), { target: { value: '2025-03-04T10:30' } })
		await user.click(screen.getByRole('checkbox', { name: /I agree to the terms/ }))
		await user.type(screen.getByLabelText('Home page'), 'example.com/about')
		await user.type(screen.getByLabelText('E-mail'), 'ada@example.com')
		expect(screen.getByLabelText('Phone')).toHaveAttribute('type', 'tel')
		await user.type(screen.getByLabelText('Phone'), '+44 20 7946 0000')

		// People: read once with the form's scope, bots left out, searched in the page.
		const owner = screen.getByRole('group', { name: 'Owner' })
		await user.click(await within(owner).findByRole('checkbox', { name: 'Grace Hopper' }))
		expect(within(owner).queryByRole('checkbox', { name: 'Sync bot' })).not.toBeInTheDocument()
		await user.type(within(owner).getByRole('searchbox', { name: 'Search Owner' }), 'alan')
		await user.click(await within(owner).findByRole('checkbox', { name: 'Alan Turing' }))
		// Relation: searched on the server; a chosen row stays listed when a search hides it.
		const project = screen.getByRole('group', { name: 'Project' })
		await user.click(await within(project).findByRole('checkbox', { name: 'Apollo' }))
		await user.type(within(project).getByRole('searchbox', { name: 'Search Project' }), 'Gem')
		await user.click(await within(project).findByRole('checkbox', { name: 'Gemini' }))
		expect(within(project).getByRole('checkbox', { name: 'Apollo' })).toBeChecked()

		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText(/We will reply within a day/)).toBeInTheDocument()

		const people = calls.filter((call) => call.path === '/api/local/users')
		expect(people).toHaveLength(1)
		expect(people[0]?.url.searchParams.get('scope')).toBe('form:f1')
		const relation = calls.filter((call) => call.path === '/api/local/databases')
		expect(relation[0]?.url.searchParams.get('scope')).toBe('form:f1')
		expect(relation[0]?.url.searchParams.get('database')).toBe('db1')
		expect(relation.at(-1)?.url.searchParams.get('search')).toBe('Gem')

		const [submit] = submissions(calls)
		expect(submit?.method).toBe('POST')
		const body = submit?.body as { answers: Record<string, unknown> } & Record<string, unknown>
		expect(body.formId).toBe('f1')
		expect(body.renderToken).toBe('render-1')
		expect(body.website).toBe('')
		expect(body.unlockToken).toBeUndefined()
		expect(typeof body.idempotencyKey).toBe('string')
		const meeting = body.answers.meeting as { start: string; end: null; timeZone: string }
		expect(body.answers).toEqual({
			name: 'Ada',
			about: 'Line one\nLine two',
			age: 42.5,
			size: 'M',
			country: 'IT',
			stage: 'Done',
			tags: ['a', 'c'],
			day: { start: '2025-03-04', end: null, timeZone: null },
			meeting: { start: meeting.start, end: null, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
			agree: true,
			site: 'https://example.com/about',
			email: 'ada@example.com',
			phone: '+44 20 7946 0000',
			owner: ['u1', 'u2'],
			project: ['r1', 'r2'],
		})
		// A date-time carries its offset: the same instant as the wall time typed, wherever this runs.
		expect(meeting.start).toMatch(/^2025-03-04T10:30:00[+-]\d{2}:\d{2}$/)
		expect(Date.parse(meeting.start)).toBe(new Date('2025-03-04T10:30').getTime())
		// Many fields typed one key at a time: slower than most tests, so it gets more time.
	}, 20_000)

	it('prefills default values and leaves out what stays empty', async () => {
		const calls = serve()
		const fields = [
			field('name', 'short_text', 'Name', { defaultValue: 'Ada' }),
			field('count', 'number', 'Count', { defaultValue: 3 }),
			field('tags', 'multi_select', 'Tags', { options: ['a', 'b'], defaultValue: ['b'] }),
			field('day', 'date', 'Day', { defaultValue: { start: '2025-01-02', end: null, timeZone: null } }),
			field('news', 'checkbox', 'Send me news', { defaultValue: true }),
			field('note', 'short_text', 'Note'),
		]
		const { user } = renderWithUser(<FormView form={makeForm(fields)} mode="live" />)
		expect(screen.getByLabelText('Name')).toHaveValue('Ada')
		expect(screen.getByLabelText('Count')).toHaveValue('3')
		expect(screen.getByRole('checkbox', { name: 'b' })).toBeChecked()
		expect(screen.getByLabelText('Day')).toHaveValue('2025-01-02')
		expect(screen.getByRole('checkbox', { name: 'Send me news' })).toBeChecked()
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await screen.findByText('Thanks!')
		expect(submissions(calls)[0]?.body?.answers).toEqual({
			name: 'Ada',
			count: 3,
			tags: ['b'],
			day: { start: '2025-01-02', end: null, timeZone: null },
			news: true,
		})
	})

	it('shows required and format errors beside the fields, sums them up and focuses the first', async () => {
		const calls = serve()
		const fields = [
			field('name', 'short_text', 'Your name', { required: true }),
			field('email', 'email', 'E-mail'),
			field('age', 'number', 'Age'),
			field('size', 'select', 'Size', { options: ['S', 'M'], required: true }),
			field('agree', 'checkbox', 'I agree', { required: true }),
		]
		const { user } = renderWithUser(<FormView form={makeForm(fields)} mode="live" />)
		await user.type(screen.getByLabelText('E-mail'), 'not-an-address')
		await user.type(screen.getByLabelText('Age'), 'twelve')
		await user.click(screen.getByRole('button', { name: 'Send' }))

		const name = screen.getByLabelText(/Your name/)
		expect(name).toHaveFocus()
		expect(name).toHaveAttribute('aria-invalid', 'true')
		expect(name).toHaveAccessibleDescription('Fill in this field.')
		expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
			'Enter an e-mail address, like name@example.com.',
		)
		expect(screen.getByLabelText('Age')).toHaveAccessibleDescription('Enter a number, like 42 or 3.5.')
		expect(screen.getByRole('radiogroup', { name: 'Size' })).toHaveAccessibleDescription('Choose an option.')
		expect(screen.getByRole('checkbox', { name: /I agree/ })).toHaveAccessibleDescription('Tick this box to continue.')
		const summary = screen.getByRole('alert')
		expect(summary).toHaveTextContent('Check these 5 answers')
		expect(within(summary).getByRole('link', { name: 'E-mail' })).toBeInTheDocument()
		expect(submissions(calls)).toHaveLength(0)

		// Fixing a field clears its error; the summary link moves the focus to a field.
		await user.type(name, 'Ada')
		expect(name).not.toHaveAttribute('aria-invalid')
		await user.click(within(screen.getByRole('alert')).getByRole('link', { name: 'Age' }))
		expect(screen.getByLabelText('Age')).toHaveFocus()
	})

	it('takes a decimal comma where the browser language writes one, and only there', async () => {
		const calls = serve()
		const { user } = renderWithUser(<FormView form={makeForm([field('budget', 'number', 'Budget')])} mode="live" />)
		await user.type(screen.getByLabelText('Budget'), '1,000')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(screen.getByLabelText('Budget')).toHaveAccessibleDescription('Enter a number, like 42 or 3.5.')

		const NumberFormat = Intl.NumberFormat
		// A function, not an arrow: the code calls it with `new`.
		vi.spyOn(Intl, 'NumberFormat').mockImplementation(function french(_locales, options) {
			return new NumberFormat('fr-FR', options)
		})
		await user.clear(screen.getByLabelText('Budget'))
		await user.type(screen.getByLabelText('Budget'), '3,5')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await screen.findByText('Thanks!')
		expect(submissions(calls)[0]?.body?.answers).toEqual({ budget: 3.5 })
	})

	it("shows the server's field errors beside their fields and the rest in the form", async () => {
		serve(() =>
			problem(400, 'VALIDATION_FAILED', 'Some answers are invalid.', [
				{ field: 'answers.email', message: 'That domain does not take mail.' },
				{ field: 'answers.gone', message: 'This form has no such field.' },
			]),
		)
		const fields = [field('name', 'short_text', 'Name'), field('email', 'email', 'E-mail')]
		const { user } = renderWithUser(<FormView form={makeForm(fields)} mode="live" />)
		await user.type(screen.getByLabelText('E-mail'), 'ada@example.invalid')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		const email = screen.getByLabelText('E-mail')
		await waitFor(() => expect(email).toHaveFocus())
		expect(email).toHaveAttribute('aria-invalid', 'true')
		expect(email).toHaveAccessibleDescription('That domain does not take mail.')
		expect(email).toHaveValue('ada@example.invalid')
		expect(screen.getByText('This form has no such field.')).toBeInTheDocument()
	})

	it('retries a failed connection with the same idempotency key, keeps the answers, then offers Try again', async () => {
		useFakeTimers()
		let isDown = true
		const calls = serve(() => {
			if (isDown) {
				throw new TypeError('Failed to fetch')
			}
			return submitted()
		})
		const { user } = renderWithUser(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />, {
			user: { advanceTimers: vi.advanceTimersByTime },
		})
		await user.type(screen.getByLabelText('Name'), 'Ada')
		await user.click(screen.getByRole('button', { name: 'Send' }))

		expect(await screen.findByText(/Trying again \(attempt 2 of 4\)/)).toBeInTheDocument()
		expect(screen.getByRole('button', { name: 'Sending…' })).toBeDisabled()
		expect(submissions(calls)).toHaveLength(1)
		for (const [index, delay] of [1000, 3000, 8000].entries()) {
			await act(() => vi.advanceTimersByTimeAsync(delay))
			await waitFor(() => expect(submissions(calls)).toHaveLength(index + 2))
		}
		expect(await screen.findByText(/couldn't send your answers/)).toBeInTheDocument()
		expect(screen.getByLabelText('Name')).toHaveValue('Ada')

		isDown = false
		await user.click(screen.getByRole('button', { name: 'Try again' }))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		const keys = new Set(submissions(calls).map((call) => call.body?.idempotencyKey))
		expect(submissions(calls)).toHaveLength(5)
		expect(keys.size).toBe(1)
	})

	it('retries a 503 and counts it once', async () => {
		useFakeTimers()
		let failures = 1
		const calls = serve(() =>
			failures-- > 0 ? problem(503, 'SERVICE_UNAVAILABLE', 'Starting up.') : submitted('Got it.'),
		)
		const { user } = renderWithUser(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />, {
			user: { advanceTimers: vi.advanceTimersByTime },
		})
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await waitFor(() => expect(submissions(calls)).toHaveLength(1))
		await act(() => vi.advanceTimersByTimeAsync(1000))
		expect(await screen.findByText('Got it.')).toBeInTheDocument()
		expect(submissions(calls)[0]?.body?.idempotencyKey).toBe(submissions(calls)[1]?.body?.idempotencyKey)
	})

	it('waits when the server says TOO_FAST, then sends once more by itself', async () => {
		useFakeTimers()
		let isFirst = true
		const calls = serve(() => {
			if (isFirst) {
				isFirst = false
				return problem(422, 'TOO_FAST', 'That was quicker than a person can fill in this form.')
			}
			return submitted()
		})
		const { user } = renderWithUser(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />, {
			user: { advanceTimers: vi.advanceTimersByTime },
		})
		await user.type(screen.getByLabelText('Name'), 'Ada')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText(/sending in a moment/)).toBeInTheDocument()
		await act(() => vi.advanceTimersByTimeAsync(1000))
		expect(submissions(calls)).toHaveLength(1)
		await act(() => vi.advanceTimersByTimeAsync(3000))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		expect(submissions(calls)).toHaveLength(2)
		expect(submissions(calls)[1]?.body?.idempotencyKey).toBe(submissions(calls)[0]?.body?.idempotencyKey)
		expect(submissions(calls)[1]?.body?.answers).toEqual({ name: 'Ada' })
	})

	it('fetches a fresh render token when the page is out of date and sends again', async () => {
		const calls = mockFetch((call) => {
			if (call.path === '/api/forms/f1') {
				return json(200, makeForm([field('name', 'short_text', 'Name')], { renderToken: 'render-2' }))
			}
			if (call.path === '/api/submissions') {
				return call.body?.renderToken === 'render-2'
					? submitted()
					: problem(400, 'INVALID_TOKEN', 'This page is out of date.')
			}
			return json(202, {})
		})
		const { user } = renderWithUser(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />)
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		expect(submissions(calls).map((call) => call.body?.renderToken)).toEqual(['render-1', 'render-2'])
	})

	it('shows the closed message when the form closes while being filled in', async () => {
		serve(() => problem(409, 'FORM_CLOSED', 'We have all the answers we need.'))
		const { user } = renderWithUser(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />)
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByRole('heading', { name: 'This form is closed' })).toBeInTheDocument()
		expect(screen.getByText('We have all the answers we need.')).toBeInTheDocument()
	})

	it('keeps the honeypot out of the keyboard order and out of sight', async () => {
		const calls = serve()
		const fields = [field('name', 'short_text', 'Name'), field('size', 'select', 'Size', { options: ['S', 'M'] })]
		const { user, container } = renderWithUser(<FormView form={makeForm(fields)} mode="live" />)
		const honeypot = container.querySelector('input[name="website"]') as HTMLInputElement
		expect(honeypot).toHaveAttribute('tabindex', '-1')
		expect(honeypot).toHaveAttribute('autocomplete', 'off')
		expect(honeypot.parentElement).toHaveAttribute('aria-hidden', 'true')
		const focused: Element[] = []
		for (let step = 0; step < 8; step += 1) {
			await user.tab()
			focused.push(document.activeElement as Element)
		}
		expect(focused).not.toContain(honeypot)
		expect(focused).toContain(screen.getByRole('button', { name: 'Send' }))
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await screen.findByText('Thanks!')
		expect(submissions(calls)[0]?.body?.website).toBe('')
	})

	it('sends one view beacon on load and one start on the first change', async () => {
		serve()
		const fields = [field('name', 'short_text', 'Name'), field('email', 'email', 'E-mail')]
		const { user } = renderWithUser(
			<StrictMode>
				<FormView form={makeForm(fields)} mode="live" />
			</StrictMode>,
		)
		expect(await beaconEvents()).toEqual([{ events: [{ formId: 'f1', kind: 'view' }] }])
		await user.type(screen.getByLabelText('Name'), 'Ada')
		await user.type(screen.getByLabelText('E-mail'), 'a@b.co')
		expect(await beaconEvents()).toEqual([
			{ events: [{ formId: 'f1', kind: 'view' }] },
			{ events: [{ formId: 'f1', kind: 'start' }] },
		])
	})

	it('falls back to fetch with keepalive where there is no sendBeacon', async () => {
		Reflect.deleteProperty(navigator, 'sendBeacon')
		const calls = serve()
		render(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />)
		await waitFor(() => expect(calls.filter((call) => call.path === '/api/views')).toHaveLength(1))
		expect(calls[0]?.body).toEqual({ events: [{ formId: 'f1', kind: 'view' }] })
		const init = vi.mocked(fetch).mock.calls[0]?.[1]
		expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit' })
	})

	it('keeps answers on this device while filling in, restores them, and clears them once sent', async () => {
		const calls = serve()
		const form = makeForm([
			field('name', 'short_text', 'Name'),
			field('tags', 'multi_select', 'Tags', { options: ['a'] }),
		])
		const first = renderWithUser(<FormView form={form} mode="live" />)
		await first.user.type(screen.getByLabelText('Name'), 'Ada')
		await first.user.click(screen.getByRole('checkbox', { name: 'a' }))
		first.unmount()

		const { user } = renderWithUser(<FormView form={form} mode="live" />)
		expect(screen.getByLabelText('Name')).toHaveValue('Ada')
		expect(screen.getByRole('checkbox', { name: 'a' })).toBeChecked()
		expect(screen.getByText('Your answers from earlier are back.')).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks!')).toHaveFocus()
		expect(window.localStorage.getItem('blocksmith.form-draft.f1')).toBeNull()

		// Another response: empty fields and a new key.
		await user.click(screen.getByRole('button', { name: 'Submit another response' }))
		expect(screen.getByLabelText('Name')).toHaveValue('')
		await user.type(screen.getByLabelText('Name'), 'Grace')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await screen.findByText('Thanks!')
		const [one, two] = submissions(calls)
		expect(one?.body?.idempotencyKey).not.toBe(two?.body?.idempotencyKey)
	})

	it('reuses the saved key after a reload, so a submit whose answer was lost still counts once', async () => {
		const calls = serve()
		window.localStorage.setItem(
			'blocksmith.form-draft.f1',
			JSON.stringify({ values: { name: 'Ada' }, idempotencyKey: 'key-from-before', savedAt: Date.now() }),
		)
		const { user } = renderWithUser(<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="live" />)
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await screen.findByText('Thanks!')
		expect(submissions(calls)[0]?.body).toMatchObject({ idempotencyKey: 'key-from-before', answers: { name: 'Ada' } })
	})
})

describe('FormView, preview', () => {
	it('never touches the network and shows the confirmation after checking the answers', async () => {
		const calls = mockFetch(() => json(500, {}))
		const loadChoices = vi.fn(async () => [{ id: 'r1', label: 'Apollo' }])
		const fields = [field('name', 'short_text', 'Name', { required: true }), field('project', 'relation', 'Project')]
		const { user } = renderWithUser(
			<FormView form={makeForm(fields)} mode="preview" loadChoices={loadChoices} headingLevel={2} />,
		)
		expect(screen.getByRole('heading', { level: 2, name: 'Get in touch' })).toBeInTheDocument()
		await user.click(await screen.findByRole('checkbox', { name: 'Apollo' }))
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(screen.getByLabelText(/Name/)).toHaveFocus()
		await user.type(screen.getByLabelText(/Name/), 'Ada')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Preview: nothing was sent.')).toBeInTheDocument()
		expect(calls).toHaveLength(0)
		expect(beacons).toHaveLength(0)
		expect(window.localStorage.length).toBe(0)
	})

	it('reads the choices again when their source changes, not when the label does', async () => {
		const loadChoices = vi.fn(async (_field: PublicField, _search: string) => [{ id: 'r1', label: 'Apollo' }])
		const project = field('project', 'relation', 'Project', { relationDatabaseId: 'db1' })
		const { rerender } = render(<FormView form={makeForm([project])} mode="preview" loadChoices={loadChoices} />)
		await screen.findByRole('checkbox', { name: 'Apollo' })
		rerender(<FormView form={makeForm([{ ...project, label: 'Projects' }])} mode="preview" loadChoices={loadChoices} />)
		expect(screen.getByRole('group', { name: 'Projects' })).toBeInTheDocument()
		expect(loadChoices).toHaveBeenCalledTimes(1)
		rerender(
			<FormView
				form={makeForm([{ ...project, relationDatabaseId: 'db2' }])}
				mode="preview"
				loadChoices={loadChoices}
			/>,
		)
		await waitFor(() => expect(loadChoices).toHaveBeenCalledTimes(2))
		expect(loadChoices.mock.calls[1]?.[0]).toMatchObject({ id: 'project', relationDatabaseId: 'db2' })
	})

	it('hands the answers to onSubmit and shows its field errors', async () => {
		mockFetch(() => json(500, {}))
		const onSubmit = vi.fn(async () => ({ status: 'invalid' as const, fieldErrors: { name: 'Taken.' } }))
		const { user } = renderWithUser(
			<FormView form={makeForm([field('name', 'short_text', 'Name')])} mode="preview" onSubmit={onSubmit} />,
		)
		await user.type(screen.getByLabelText('Name'), 'Ada')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(onSubmit).toHaveBeenCalledWith({ name: 'Ada' })
		expect(await screen.findByText('Taken.')).toBeInTheDocument()
		expect(screen.getByLabelText('Name')).toHaveFocus()
	})
})
