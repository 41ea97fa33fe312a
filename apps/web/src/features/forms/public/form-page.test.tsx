import type { PublicForm, UnlockResult } from '@blocksmith/contracts/forms.ts'
import { render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { FormPage, type FormPageData, readPageData } from './form-page.tsx'
import { field, json, makeForm, mockFetch, problem } from './testing.ts'

// The page around the form: the server's page data or a fetch, the states in place of a form,
// and the password screen with its unlock token kept for the tab.

/** The page's form: one field, a slug, no title or description of its own. */
function pageForm(extra: Partial<PublicForm> = {}): PublicForm {
	return makeForm([field('name', 'short_text', 'Your name')], {
		slug: 'enquiry',
		pageTitle: null,
		pageDescription: null,
		...extra,
	})
}

const lockedForm = pageForm({ passwordRequired: true, fields: null })

let beaconCount = 0

beforeEach(() => {
	beaconCount = 0
	Object.defineProperty(navigator, 'sendBeacon', {
		configurable: true,
		value: vi.fn(() => {
			beaconCount += 1
			return true
		}),
	})
})

afterEach(() => {
	Reflect.deleteProperty(navigator, 'sendBeacon')
	window.sessionStorage.clear()
	document.getElementById('blocksmith-page')?.remove()
})

describe('the public form page', () => {
	it('reads the page data the server wrote into the HTML', () => {
		const block = document.createElement('script')
		block.type = 'application/json'
		block.id = 'blocksmith-page'
		block.textContent = JSON.stringify({ form: pageForm() })
		document.head.append(block)
		expect(readPageData()).toEqual({ form: pageForm() })
		block.textContent = JSON.stringify({ error: { status: 410, code: 'FORM_DELETED', detail: 'Deleted.' } })
		expect(readPageData()).toEqual({ error: { status: 410, code: 'FORM_DELETED', detail: 'Deleted.' } })
		block.remove()
		expect(readPageData()).toBeNull()
	})

	it('renders the form from the page data without a request, with the footer link home', () => {
		const calls = mockFetch(() => json(202, {}))
		render(<FormPage idOrSlug="enquiry" initial={{ form: pageForm() }} />)
		expect(screen.getByRole('heading', { level: 1, name: 'Enquiry' })).toBeInTheDocument()
		expect(screen.getByLabelText('Your name')).toBeInTheDocument()
		expect(screen.getByRole('link', { name: /Made with Blocksmith/ })).toHaveAttribute('href', '/')
		expect(calls).toHaveLength(0)
		expect(beaconCount).toBe(1)
	})

	it('fetches the page data when the HTML has none (dev server, client navigation)', async () => {
		const calls = mockFetch((call) => (call.path === '/api/forms/enquiry' ? json(200, pageForm()) : json(202, {})))
		render(<FormPage idOrSlug="enquiry" />)
		expect(screen.getByRole('status')).toHaveTextContent('Loading the form…')
		expect(await screen.findByLabelText('Your name')).toBeInTheDocument()
		expect(calls[0]?.path).toBe('/api/forms/enquiry')
		expect(document.title).toBe('Enquiry')
	})

	it.each<[string, FormPageData, string, RegExp]>([
		[
			'not found',
			{ error: { status: 404, code: 'NOT_FOUND', detail: 'This form is not published.' } },
			"This form isn't available",
			/not published/,
		],
		[
			'deleted',
			{ error: { status: 410, code: 'FORM_DELETED', detail: 'This form was deleted by its owner.' } },
			'This form was deleted',
			/deleted by its owner/,
		],
		[
			'closed',
			{ form: pageForm({ acceptingResponses: false, closedMessage: 'We are full.\nSee you next year.' }) },
			'Enquiry is closed',
			/We are full/,
		],
	])('says clearly when the form is %s, and counts no view', (_name, initial, title, message) => {
		mockFetch(() => json(202, {}))
		render(<FormPage idOrSlug="enquiry" initial={initial} />)
		expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument()
		expect(screen.getByText(message)).toBeInTheDocument()
		expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
		expect(beaconCount).toBe(0)
	})

	it('shows the same states when fetched', async () => {
		mockFetch(() => problem(410, 'FORM_DELETED', 'This form was deleted by its owner.'))
		render(<FormPage idOrSlug="enquiry" />)
		expect(await screen.findByRole('heading', { name: 'This form was deleted' })).toBeInTheDocument()
	})

	it('asks for the password, unlocks, keeps the token for the tab and sends it with the answers', async () => {
		const unlocked: UnlockResult = {
			unlockToken: 'unlock-1',
			expiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
			form: pageForm({ passwordRequired: true }),
		}
		const calls = mockFetch((call) => {
			if (call.path === '/api/forms/f1/unlock_form') {
				return call.body?.password === 'open sesame'
					? json(200, unlocked)
					: problem(403, 'WRONG_PASSWORD', 'That password is not right.', [
							{ field: 'password', message: 'That password is not right.' },
						])
			}
			if (call.path === '/api/forms/f1') {
				return json(200, call.url.searchParams.get('unlockToken') === 'unlock-1' ? unlocked.form : lockedForm)
			}
			if (call.path === '/api/submissions') {
				return json(201, { id: 's1', duplicate: false, confirmationMessage: 'Thanks!' })
			}
			return json(202, {})
		})
		const { user, unmount } = renderWithUser(<FormPage idOrSlug="f1" initial={{ form: lockedForm }} />)
		// The password screen loads with the forms that have one.
		const password = await screen.findByLabelText('Password')
		expect(password).toHaveAttribute('type', 'password')
		expect(screen.queryByLabelText('Your name')).not.toBeInTheDocument()

		await user.type(password, 'guess')
		await user.click(screen.getByRole('button', { name: 'Open the form' }))
		expect(await screen.findByRole('alert')).toHaveTextContent('That password is not right.')
		expect(password).toHaveAttribute('aria-invalid', 'true')
		expect(password).toHaveFocus()

		await user.clear(password)
		await user.type(password, 'open sesame')
		await user.click(screen.getByRole('button', { name: 'Open the form' }))
		expect(await screen.findByLabelText('Your name')).toBeInTheDocument()
		const saved = JSON.parse(window.sessionStorage.getItem('blocksmith.form-unlock.f1') ?? '{}') as { token?: string }
		expect(saved.token).toBe('unlock-1')

		// A reload in the same tab stays unlocked: the fields come with the kept token.
		unmount()
		const reloaded = renderWithUser(<FormPage idOrSlug="f1" initial={{ form: lockedForm }} />)
		await reloaded.user.type(await screen.findByLabelText('Your name'), 'Ada')
		expect(screen.queryByLabelText('Password')).not.toBeInTheDocument()
		expect(calls.at(-1)?.url.searchParams.get('unlockToken')).toBe('unlock-1')
		await reloaded.user.click(screen.getByRole('button', { name: 'Send' }))
		await screen.findByText('Thanks!')
		const submit = calls.find((call) => call.path === '/api/submissions')
		expect(submit?.body).toMatchObject({ formId: 'f1', unlockToken: 'unlock-1', answers: { name: 'Ada' } })
	})

	it('forgets an expired token and asks for the password again', async () => {
		window.sessionStorage.setItem(
			'blocksmith.form-unlock.f1',
			JSON.stringify({ token: 'old', expiresAt: new Date(Date.now() - 1000).toISOString() }),
		)
		const calls = mockFetch(() => json(202, {}))
		render(<FormPage idOrSlug="f1" initial={{ form: lockedForm }} />)
		expect(await screen.findByLabelText('Password')).toBeInTheDocument()
		expect(calls).toHaveLength(0)
	})

	it('asks for the password again when the server no longer takes the token, keeping the answers', async () => {
		window.sessionStorage.setItem(
			'blocksmith.form-unlock.f1',
			JSON.stringify({ token: 'unlock-1', expiresAt: new Date(Date.now() + 60_000).toISOString() }),
		)
		mockFetch((call) => {
			if (call.path === '/api/forms/f1') {
				return json(200, pageForm({ passwordRequired: true }))
			}
			if (call.path === '/api/submissions') {
				return problem(403, 'PASSWORD_REQUIRED', 'This form is password-protected.')
			}
			return json(202, {})
		})
		const { user } = renderWithUser(<FormPage idOrSlug="f1" initial={{ form: lockedForm }} />)
		await user.type(await screen.findByLabelText('Your name'), 'Ada')
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText(/access to this form has expired/)).toBeInTheDocument()
		expect(screen.getByLabelText('Password')).toBeInTheDocument()
		expect(window.sessionStorage.getItem('blocksmith.form-unlock.f1')).toBeNull()
		await waitFor(() => expect(window.localStorage.getItem('blocksmith.form-draft.f1')).toContain('Ada'))
	})
})

describe('the theme', () => {
	const themed = (theme: Partial<PublicForm['theme']>) => {
		const form = pageForm()
		return { form: { ...form, theme: { ...form.theme, ...theme } } }
	}

	it('puts the colours, font, corners, images and confined CSS on the form root, inside its containment', () => {
		render(
			<FormPage
				idOrSlug="enquiry"
				initial={themed({
					accentColor: '#facc15',
					accentForeground: '#000000',
					backgroundColor: '#0f172a',
					font: 'serif',
					corners: 'square',
					logo: 'https://cdn.example/logo.png',
					cover: 'https://cdn.example/cover.png',
					css: '.bs-form h1{text-transform:uppercase}',
				})}
			/>,
		)
		const heading = screen.getByRole('heading', { level: 1, name: 'Enquiry' })
		const root = heading.closest('.bs-form') as HTMLElement
		expect(root).not.toBeNull()
		expect(root.dataset.font).toBe('serif')
		expect(root.dataset.corners).toBe('square')
		expect(root.style.getPropertyValue('--primary')).toBe('#facc15')
		expect(root.style.getPropertyValue('--primary-foreground')).toBe('#000000')
		// Contained by a wrapper the author's selectors cannot name.
		expect(root.parentElement?.className).toContain('[contain:layout_paint]')
		expect(root.querySelector('style')?.textContent).toBe('.bs-form h1{text-transform:uppercase}')
		const images = Array.from(root.querySelectorAll('img')).map((image) => image.getAttribute('src'))
		expect(images).toEqual(['https://cdn.example/cover.png', 'https://cdn.example/logo.png'])
		expect(root.closest<HTMLElement>('main')?.parentElement?.style.backgroundColor).toBe('rgb(15, 23, 42)')
		// The branding sits outside the root, where the author's CSS cannot reach it.
		const branding = screen.getByRole('link', { name: /Made with/ })
		expect(root.contains(branding)).toBe(false)
	})

	it('without branding, the page says nothing about the product', () => {
		render(<FormPage idOrSlug="enquiry" initial={themed({ showBranding: false })} />)
		screen.getByRole('heading', { level: 1, name: 'Enquiry' })
		expect(screen.queryByText(/Made with/)).toBeNull()
	})
})
