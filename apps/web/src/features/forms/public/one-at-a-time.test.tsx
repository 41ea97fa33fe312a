import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { FormView } from '../components/form-view.tsx'
import { type Call, field, json, makeForm, mockFetch, pageBreak, problem } from './testing.ts'

// One question at a time, filled in from the keyboard alone: Tab once into the first question,
// then Enter, letters, Shift+Enter, the arrows and Escape, never the mouse.

const oneAtATime = { display: 'one_at_a_time', showProgress: true } as const

const questions: PublicField[] = [
	field('intro', 'paragraph', 'Intro', { propertyId: null, body: 'A few questions.' }),
	field('name', 'short_text', 'Your name', { required: true }),
	field('plan', 'select', 'Plan', { required: true, options: ['Basic', 'Pro'] }),
	field('tags', 'multi_select', 'Interests', { options: ['Music', 'Film', 'Books'] }),
	pageBreak('p2', 'More'),
	field('about', 'long_text', 'About you'),
	field('agree', 'checkbox', 'I agree to the terms', { required: true }),
]

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

const progressText = () => screen.getByRole('progressbar').getAttribute('aria-valuetext')

describe('FormView, one question at a time', () => {
	it('is filled in and sent by keyboard alone', async () => {
		const calls = serve()
		const { user, unmount } = renderWithUser(
			<FormView form={makeForm(questions, { layout: oneAtATime })} mode="live" />,
		)

		// The rules engine (the form has pages) and the keys load apart; the hint says when they work.
		expect(await screen.findByText('Enter ↵')).toBeInTheDocument()
		// The content before the first question shows with it; one question on screen.
		expect(screen.getByText('A few questions.')).toBeInTheDocument()
		expect(screen.getByLabelText(/Your name/)).toBeInTheDocument()
		expect(screen.queryByRole('radiogroup', { name: /Plan/ })).not.toBeInTheDocument()
		expect(progressText()).toBe('Question 1 of 5')

		await user.tab()
		expect(screen.getByLabelText(/Your name/)).toHaveFocus()
		// Required: Enter on an empty answer stays and says why.
		await user.keyboard('{Enter}')
		expect(screen.getByText('Fill in this field.')).toBeInTheDocument()
		await user.keyboard('Ada{Enter}')

		// A letter per choice; the focus is on the question already.
		expect(progressText()).toBe('Question 2 of 5')
		expect(screen.queryByText('A few questions.')).not.toBeInTheDocument()
		expect(screen.getByRole('radio', { name: 'Basic' })).toHaveFocus()
		expect(screen.getByText('Press A to B to choose.')).toBeInTheDocument()
		await user.keyboard('b')
		expect(screen.getByRole('radio', { name: 'Pro' })).toBeChecked()
		await user.keyboard('{Enter}')

		// Letters toggle the choices of a multiple choice; a letter past the list does nothing.
		expect(screen.getByRole('checkbox', { name: 'Music' })).toHaveFocus()
		await user.keyboard('acz')
		expect(screen.getByRole('checkbox', { name: 'Music' })).toBeChecked()
		expect(screen.getByRole('checkbox', { name: 'Books' })).toBeChecked()
		await user.keyboard('a')
		expect(screen.getByRole('checkbox', { name: 'Music' })).not.toBeChecked()
		// ↑ goes back, ↓ on again.
		await user.keyboard('{ArrowUp}')
		expect(screen.getByRole('radio', { name: 'Pro' })).toBeChecked()
		await user.keyboard('{Enter}')
		await user.keyboard('{ArrowDown}')

		// A long answer: Shift+Enter is a new line, Enter goes on; letters are typed, not chosen.
		expect(screen.getByLabelText('About you')).toHaveFocus()
		await user.keyboard('Line one{Shift>}{Enter}{/Shift}Line two')
		expect(screen.getByLabelText('About you')).toHaveValue('Line one\nLine two')
		// Escape leaves the text box for the screen: the answer stays and the keys still work.
		await user.keyboard('{Escape}')
		expect(screen.getByLabelText('About you')).not.toHaveFocus()
		expect(screen.getByLabelText('About you')).toHaveValue('Line one\nLine two')
		await user.keyboard('{ArrowDown}')

		// The last question sends: a required checkbox, ticked with A.
		expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument()
		expect(screen.getByRole('checkbox', { name: /I agree/ })).toHaveFocus()
		await user.keyboard('{Enter}')
		expect(screen.getByText('Tick this box to continue.')).toBeInTheDocument()
		await user.keyboard('a{Enter}')

		expect(await screen.findByText('Thanks!')).toBeInTheDocument()
		const sent = calls.find((call) => call.path === '/api/submissions')?.body?.answers
		expect(sent).toEqual({
			name: 'Ada',
			plan: 'Pro',
			tags: ['Books'],
			about: 'Line one\nLine two',
			agree: true,
		})

		// Each question shown was reported once, and the second page.
		unmount()
		const steps = (
			await Promise.all(
				beacons.map(async (blob) => JSON.parse(await blob.text()) as { events: { kind: string; step?: string }[] }),
			)
		).flatMap((body) => body.events.filter((event) => event.kind === 'reach').map((event) => event.step))
		expect(steps.toSorted()).toEqual(['about', 'agree', 'name', 'p2', 'plan', 'tags'])
	})

	it('leaves letters and arrows to a text box, and keeps the place after a reload', async () => {
		serve()
		const form = makeForm(questions, { layout: oneAtATime })
		const first = renderWithUser(<FormView form={form} mode="live" />)
		await screen.findByText('Enter ↵')
		await first.user.tab()
		await first.user.keyboard('Abba{ArrowUp}{ArrowDown}')
		expect(screen.getByLabelText(/Your name/)).toHaveValue('Abba')
		await first.user.keyboard('{Enter}a')
		first.unmount()

		const { user } = renderWithUser(<FormView form={form} mode="live" />)
		expect(await screen.findByRole('radio', { name: 'Basic' })).toBeChecked()
		expect(progressText()).toBe('Question 2 of 5')
		await user.click(screen.getByRole('button', { name: 'Back' }))
		expect(screen.getByLabelText(/Your name/)).toHaveValue('Abba')
	})

	it('picks points with the number keys: a rating, and ten on an NPS as 1 then 0', async () => {
		const calls = serve()
		const form = makeForm(
			[
				field('stars', 'rating', 'How was it?', {
					propertyId: null,
					required: true,
					scale: { min: 1, max: 5, minLabel: null, maxLabel: null },
				}),
				field('nps', 'nps', 'Would you recommend us?', { propertyId: null }),
			],
			{ layout: oneAtATime },
		)
		const { user } = renderWithUser(<FormView form={form} mode="live" />)
		expect(await screen.findByText('Press 1 to 5 to choose.')).toBeInTheDocument()
		await user.tab()
		// Out of range: nothing; in range: that many stars.
		await user.keyboard('7')
		await user.keyboard('{Enter}')
		expect(screen.getByText('Question 1 of 2', { selector: '[aria-hidden]' })).toBeInTheDocument()
		await user.keyboard('4{Enter}')
		expect(await screen.findByText('Press 0 to 9, or 1 then 0 for 10.')).toBeInTheDocument()
		await user.keyboard('10{Enter}')
		await screen.findByText('Thanks!')
		expect(calls.find((call) => call.path === '/api/submissions')?.body?.answers).toEqual({ stars: 4, nps: 10 })
	})
})
