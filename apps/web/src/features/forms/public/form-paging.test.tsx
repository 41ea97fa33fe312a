import type { LogicRule } from '@blocksmith/contracts/form-rules.ts'
import type { PublicForm } from '@blocksmith/contracts/forms.ts'
import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { FormView } from '../components/form-view.tsx'
import { type Call, field, json, makeForm, mockFetch, pageBreak, problem } from './testing.ts'

// A form on pages: Back and Next, Next checking only its page, jumps by the rules (to a page or
// to the end), the progress by the path, the page and trail kept after a reload, and the drop-off
// beacons (once per step, never from the preview).

const jumpTo = (toPageId: string, plan: string): LogicRule => ({
	id: `jump-${toPageId}`,
	match: 'all',
	action: 'jump',
	fieldIds: [],
	conditions: [{ fieldId: 'plan', operator: 'equals', value: plan }],
	toPageId,
})

/** Four pages: the start (name, plan), About your team, Pro details (seats), Last words. */
function pagedForm(rules: LogicRule[] = [jumpTo('p4', 'Basic')], extra: Partial<PublicForm> = {}) {
	return makeForm(
		[
			field('name', 'short_text', 'Your name', { required: true }),
			field('plan', 'select', 'Plan', { required: true, options: ['Basic', 'Pro'] }),
			pageBreak('p2', 'About your team'),
			field('team', 'number', 'Team size'),
			pageBreak('p3', 'Pro details'),
			field('seats', 'number', 'Seats', { required: true }),
			pageBreak('p4', 'Last words'),
			field('comments', 'long_text', 'Comments'),
		],
		{ logic: rules, ...extra },
	)
}

let beacons: Blob[]

function serve() {
	return mockFetch((call: Call) => {
		if (call.path === '/api/submissions') {
			return json(201, { id: 's1', duplicate: false, confirmationMessage: 'Thanks!', redirectUrl: null })
		}
		if (call.path === '/api/views') {
			return json(202, { accepted: 1 })
		}
		return problem(404, 'NOT_FOUND', `Unexpected ${call.method} ${call.path}`)
	})
}

/** Forms with pages load the rules engine apart: the first screen shows once it has arrived. */
const formReady = () => screen.findByRole('button', { name: /^(Next|Send)$/ })

const sentAnswers = (calls: Call[]) => calls.find((call) => call.path === '/api/submissions')?.body?.answers

/** The steps reported as reached, in the order sent. */
async function reachedSteps() {
	const bodies = await Promise.all(
		beacons.map(async (blob) => JSON.parse(await blob.text()) as { events: { kind: string; step?: string }[] }),
	)
	return bodies.flatMap((body) => body.events.filter((event) => event.kind === 'reach').map((event) => event.step))
}

beforeEach(() => {
	window.localStorage.clear()
	beacons = []
	Object.defineProperty(navigator, 'sendBeacon', {
		configurable: true,
		value: vi.fn((_url: string, body: Blob) => {
			beacons.push(body)
			return true
		}),
	})
})

afterEach(() => {
	Reflect.deleteProperty(navigator, 'sendBeacon')
})

describe('FormView, pages', () => {
	it('checks only the current page on Next, then moves on with the focus on the new page heading', async () => {
		const calls = serve()
		const { user } = renderWithUser(<FormView form={pagedForm([])} mode="live" />)
		await formReady()

		expect(screen.queryByLabelText('Team size')).not.toBeInTheDocument()
		expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Next' }))
		// Two answers missing on this page; Seats (required, on page 3) is not asked about yet.
		expect(screen.getByRole('alert')).toHaveTextContent('Check these 2 answers')
		expect(screen.getByLabelText(/Your name/)).toHaveFocus()

		await user.type(screen.getByLabelText(/Your name/), 'Ada')
		await user.click(screen.getByRole('radio', { name: 'Pro' }))
		await user.click(screen.getByRole('button', { name: 'Next' }))
		expect(screen.getByRole('heading', { name: 'About your team' })).toHaveFocus()
		// Said where the move led, for screen readers.
		expect(screen.getByText('Page 2 of 4: About your team')).toHaveAttribute('role', 'status')
		expect(screen.queryByLabelText(/Your name/)).not.toBeInTheDocument()
		await user.type(screen.getByLabelText('Team size'), '12')

		// Back keeps what was typed, on both pages.
		await user.click(screen.getByRole('button', { name: 'Back' }))
		expect(screen.getByRole('heading', { level: 1, name: 'Get in touch' })).toHaveFocus()
		expect(screen.getByLabelText(/Your name/)).toHaveValue('Ada')
		await user.click(screen.getByRole('button', { name: 'Next' }))
		expect(screen.getByLabelText('Team size')).toHaveValue('12')
		await user.click(screen.getByRole('button', { name: 'Next' }))

		// Page 3 has its own required answer.
		await user.click(screen.getByRole('button', { name: 'Next' }))
		expect(screen.getByRole('alert')).toHaveTextContent('Check this answer')
		await user.type(screen.getByLabelText(/Seats/), '5')
		await user.click(screen.getByRole('button', { name: 'Next' }))
		// The last page sends.
		expect(screen.getByRole('heading', { name: 'Last words' })).toHaveFocus()
		expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		expect(sentAnswers(calls)).toEqual({ name: 'Ada', plan: 'Pro', team: 12, seats: 5 })
	})

	it('follows a jump to its page, goes Back along the path taken and sends nothing from skipped pages', async () => {
		const calls = serve()
		const { user } = renderWithUser(<FormView form={pagedForm()} mode="live" />)
		await formReady()
		await user.type(screen.getByLabelText(/Your name/), 'Ada')
		await user.click(screen.getByRole('radio', { name: 'Pro' }))
		expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', 'Page 1 of 4')
		await user.click(screen.getByRole('button', { name: 'Next' }))
		await user.type(screen.getByLabelText('Team size'), '12')
		await user.click(screen.getByRole('button', { name: 'Back' }))

		// Basic jumps from the first page straight to Last words: two pages in all.
		await user.click(screen.getByRole('radio', { name: 'Basic' }))
		expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuetext', 'Page 1 of 2')
		await user.click(screen.getByRole('button', { name: 'Next' }))
		expect(screen.getByRole('heading', { name: 'Last words' })).toHaveFocus()
		const progress = screen.getByRole('progressbar')
		expect(progress).toHaveAttribute('aria-valuenow', '2')
		expect(progress).toHaveAttribute('aria-valuemax', '2')
		expect(screen.getByText('Page 2 of 2', { selector: 'p[aria-hidden]' })).toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Back' }))
		expect(screen.getByLabelText(/Your name/)).toHaveValue('Ada')
		await user.click(screen.getByRole('button', { name: 'Next' }))
		await user.type(screen.getByLabelText('Comments'), 'Soon')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await screen.findByText('Thanks!')
		// The team size typed on a page the path now skips stays out; Seats was never required.
		expect(sentAnswers(calls)).toEqual({ name: 'Ada', plan: 'Basic', comments: 'Soon' })
	})

	it('sends from the page a jump to the end leaves', async () => {
		const calls = serve()
		const { user } = renderWithUser(<FormView form={pagedForm([jumpTo('end', 'Basic')])} mode="live" />)
		await formReady()
		await user.type(screen.getByLabelText(/Your name/), 'Ada')
		expect(screen.getByRole('button', { name: 'Next' })).toBeInTheDocument()
		await user.click(screen.getByRole('radio', { name: 'Basic' }))
		expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Send' }))
		await screen.findByText('Thanks!')
		expect(sentAnswers(calls)).toEqual({ name: 'Ada', plan: 'Basic' })
	})

	it('shows no progress when the form turns it off', async () => {
		serve()
		renderWithUser(
			<FormView form={pagedForm([], { layout: { display: 'classic', showProgress: false } })} mode="live" />,
		)
		await formReady()
		expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
		expect(screen.getByRole('button', { name: 'Next' })).toBeInTheDocument()
	})

	it('opens on the page it was left on after a reload, with the way back', async () => {
		serve()
		const form = pagedForm([])
		const first = renderWithUser(<FormView form={form} mode="live" />)
		await formReady()
		await first.user.type(screen.getByLabelText(/Your name/), 'Ada')
		await first.user.click(screen.getByRole('radio', { name: 'Pro' }))
		await first.user.click(screen.getByRole('button', { name: 'Next' }))
		await first.user.type(screen.getByLabelText('Team size'), '3')
		await first.user.click(screen.getByRole('button', { name: 'Next' }))
		first.unmount()

		const { user } = renderWithUser(<FormView form={form} mode="live" />)
		await formReady()
		expect(screen.getByRole('heading', { name: 'Pro details' })).toBeInTheDocument()
		expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '3')
		expect(screen.getByText('Your answers from earlier are back.')).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Back' }))
		expect(screen.getByLabelText('Team size')).toHaveValue('3')
		await user.click(screen.getByRole('button', { name: 'Back' }))
		expect(screen.getByLabelText(/Your name/)).toHaveValue('Ada')

		// Start over: the first page, empty.
		await user.click(screen.getByRole('button', { name: 'Next' }))
		await user.click(screen.getByRole('button', { name: 'Start over' }))
		expect(screen.getByLabelText(/Your name/)).toHaveValue('')
	})

	it('ignores a saved trail of pages the form no longer has', async () => {
		serve()
		window.localStorage.setItem(
			'blocksmith.form-draft.f1',
			JSON.stringify({
				values: { name: 'Ada' },
				idempotencyKey: 'k-123456789',
				savedAt: Date.now(),
				trail: ['gone', 7],
			}),
		)
		renderWithUser(<FormView form={pagedForm([])} mode="live" />)
		await formReady()
		expect(screen.getByLabelText(/Your name/)).toHaveValue('Ada')
	})

	it('shows the server error of a field on an earlier page on that page', async () => {
		mockFetch((call) =>
			call.path === '/api/submissions'
				? problem(400, 'VALIDATION_FAILED', 'Check the answers.', [{ field: 'answers.name', message: 'Taken.' }])
				: json(202, { accepted: 1 }),
		)
		const { user } = renderWithUser(<FormView form={pagedForm()} mode="live" />)
		await formReady()
		await user.type(screen.getByLabelText(/Your name/), 'Ada')
		await user.click(screen.getByRole('radio', { name: 'Basic' }))
		await user.click(screen.getByRole('button', { name: 'Next' }))
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Taken.')).toBeInTheDocument()
		expect(screen.getByLabelText(/Your name/)).toHaveFocus()
	})
})

describe('FormView, drop-off beacons', () => {
	it('reports each page opened and each question focused or answered once, with no answer in them', async () => {
		serve()
		const { user, unmount } = renderWithUser(<FormView form={pagedForm([])} mode="live" />)
		await formReady()
		await user.click(screen.getByLabelText(/Your name/))
		await user.type(screen.getByLabelText(/Your name/), 'Ada')
		await user.click(screen.getByRole('radio', { name: 'Pro' }))
		await user.click(screen.getByRole('button', { name: 'Next' }))
		await user.click(screen.getByRole('button', { name: 'Back' }))
		await user.click(screen.getByRole('button', { name: 'Next' }))
		unmount()
		const steps = await reachedSteps()
		expect(steps).toEqual(['name', 'plan', 'p2'])
		const everything = (await Promise.all(beacons.map((blob) => blob.text()))).join('\n')
		expect(everything).not.toContain('Ada')
		expect(everything).not.toContain('Pro')
	})

	it('sends nothing from the preview', async () => {
		const calls = mockFetch(() => json(500, {}))
		const { user, unmount } = renderWithUser(<FormView form={pagedForm([])} mode="preview" />)
		await formReady()
		await user.type(screen.getByLabelText(/Your name/), 'Ada')
		await user.click(screen.getByRole('radio', { name: 'Pro' }))
		await user.click(screen.getByRole('button', { name: 'Next' }))
		expect(screen.getByRole('heading', { name: 'About your team' })).toBeInTheDocument()
		unmount()
		expect(beacons).toHaveLength(0)
		expect(calls).toHaveLength(0)
	})
})
