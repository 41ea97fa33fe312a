import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { FormView } from '#src/features/forms/components/form-view.tsx'
import { FormPage } from '#src/features/forms/public/form-page.tsx'
import { field, json, makeForm, mockFetch, problem } from '#src/features/forms/public/testing.ts'
import { renderWithUser } from '#src/test/render.tsx'
import { PublicFormPage } from './public-form-page.tsx'

// A published form whose organization's subscription is paused or over: visitors read a
// neutral line, never the owner's closed message nor anything about billing.

const unavailable = () => problem(409, 'UNAVAILABLE', 'This page is not available right now.')

function expectNeutral() {
	expect(screen.queryByText(/closed/i)).toBeNull()
	expect(screen.queryByText(/subscription|billing|plan|paused/i)).toBeNull()
}

describe('a public form of an inactive organization', () => {
	it('says the form is unavailable when it is fetched', async () => {
		mockFetch(unavailable)
		const router = createMemoryRouter([{ path: '/forms/:id', Component: PublicFormPage }], {
			initialEntries: ['/forms/enquiry'],
		})
		render(<RouterProvider router={router} />)
		expect(await screen.findByRole('heading', { name: 'This form is unavailable right now.' })).toBeInTheDocument()
		expectNeutral()
	})

	it('says so from the page data the server wrote', () => {
		mockFetch(() => json(202, {}))
		render(
			<FormPage
				idOrSlug="enquiry"
				initial={{ error: { status: 409, code: 'UNAVAILABLE', detail: 'This page is not available right now.' } }}
			/>,
		)
		expect(screen.getByRole('heading', { name: 'This form is unavailable right now.' })).toBeInTheDocument()
		expectNeutral()
	})

	it('says so when the answers are sent after the organization stopped', async () => {
		mockFetch((call) => (call.path === '/api/submissions' ? unavailable() : json(202, {})))
		const form = makeForm([field('name', 'short_text', 'Name')], { closedMessage: 'We are closed for the summer.' })
		const { user } = renderWithUser(<FormView form={form} mode="live" />)
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByRole('heading', { name: 'This form is unavailable right now.' })).toBeInTheDocument()
		expectNeutral()
	})
})
