import type { Form } from '@blocksmith/contracts/forms.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, test } from 'vitest'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { makeForm } from '../testing.tsx'
import { FormActionsMenu } from './form-actions.tsx'
import { SharePanel } from './share-panel.tsx'

// The share panel of a published form: the link to copy, its QR code with PNG and SVG downloads,
// the embed codes on the form's address, and the link card as social sites draw it, falling back
// as the page's head does. The Share button opens it; so does a first publish.

const origin = window.location.origin

/** The form the page under test shows (set before each render). */
let shown: Form = makeForm()

function PanelPage() {
	const [isOpen, setIsOpen] = useState(true)
	return <SharePanel form={shown} open={isOpen} onOpenChange={setIsOpen} />
}

function renderPanel(changes: Partial<Form> = {}) {
	shown = makeForm({ published: true, slug: 'contact', ...changes })
	return renderPage(PanelPage, '/forms/:id/edit', '/forms/f1/edit')
}

function HeaderPage() {
	return <FormActionsMenu form={shown} />
}

function ListRowPage() {
	return <FormActionsMenu form={shown} isInList />
}

let setPublished: (isPublished: boolean) => void = () => {}

/** A builder whose form gets published (and unpublished) while it is open. */
function PublishingPage() {
	const [isPublished, set] = useState(false)
	setPublished = set
	return <FormActionsMenu form={makeForm({ published: isPublished })} />
}

afterEach(() => {
	localStorage.clear()
})

describe('SharePanel', () => {
	test('copies the link and offers its QR code as PNG and SVG', async () => {
		mockApi(() => undefined)
		const { user } = renderPanel()
		const dialog = await screen.findByRole('dialog', { name: 'Share Lead form' })
		expect(within(dialog).getByRole('textbox', { name: 'Link' })).toHaveValue(`${origin}/forms/contact`)
		await user.click(within(dialog).getByRole('button', { name: 'Copy link' }))
		expect(await navigator.clipboard.readText()).toBe(`${origin}/forms/contact`)

		const qr = await within(dialog).findByRole('img', { name: `QR code of ${origin}/forms/contact` })
		const svg = decodeURIComponent((qr.getAttribute('src') ?? '').replace(/^data:image\/svg\+xml;charset=utf-8,/, ''))
		expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"/)
		expect(svg).toContain('<path')
		const png = within(dialog).getByRole('link', { name: /PNG/ })
		expect(png).toHaveAttribute('download', 'contact-qr.png')
		expect(png.getAttribute('href')).toMatch(/^data:image\/png;base64,iVBOR/)
		const svgLink = within(dialog).getByRole('link', { name: /SVG/ })
		expect(svgLink).toHaveAttribute('download', 'contact-qr.svg')
		expect(svgLink).toHaveAttribute('href', qr.getAttribute('src'))
	})

	test('the QR code changes with the address, and the downloads are named after the form without one', async () => {
		mockApi(() => undefined)
		renderPanel({ slug: null, name: 'Café & Co. enquiries' })
		const dialog = await screen.findByRole('dialog', { name: 'Share Café & Co. enquiries' })
		await within(dialog).findByRole('img', { name: `QR code of ${origin}/forms/f1` })
		expect(within(dialog).getByRole('link', { name: /PNG/ })).toHaveAttribute('download', 'cafe-co-enquiries-qr.png')
	})

	test('every embed code points at the form’s address and loads what makes it work', async () => {
		mockApi(() => undefined)
		renderPanel()
		const dialog = await screen.findByRole('dialog', { name: 'Share Lead form' })
		const url = `${origin}/forms/contact`
		const script = `<script src="${origin}/embed.js" async></script>`
		const inline = within(dialog).getByRole('textbox', { name: 'Inline' })
		expect(inline).toHaveValue(
			`<iframe data-blocksmith-form src="${url}" title="Lead form" style="width:100%;border:0;min-height:420px" loading="lazy"></iframe>\n${script}`,
		)
		expect(within(dialog).getByRole('textbox', { name: 'Popup' })).toHaveValue(
			`<button type="button" data-blocksmith-popup="${url}">Lead form</button>\n${script}`,
		)
		const fullPage = within(dialog).getByRole('textbox', { name: 'Full page' })
		expect((fullPage as HTMLTextAreaElement).value).toContain(`<iframe src="${url}" title="Lead form"`)
		expect((fullPage as HTMLTextAreaElement).value).toContain('position:fixed;inset:0;width:100%;height:100%')
	})

	test('the link card falls back to the form’s name, and shows no description or image it does not have', async () => {
		mockApi(() => undefined)
		renderPanel({
			name: 'Enquiries 2026',
			page: {
				pageTitle: null,
				pageDescription: null,
				pageThumbnail: null,
				favicon: null,
				extras: { indexable: false },
			},
		})
		const card = await screen.findByRole('figure', { name: 'How the link shows when shared' })
		expect(within(card).getByTestId('card-title')).toHaveTextContent('Enquiries 2026')
		expect(within(card).queryByTestId('card-description')).not.toBeInTheDocument()
		expect(within(card).queryByRole('img')).not.toBeInTheDocument()
		expect(within(card).getByText(new URL(origin).host)).toBeInTheDocument()
		expect(screen.getByText(/No thumbnail or description yet/)).toBeInTheDocument()
	})

	test('the link card shows the page’s title, description and thumbnail (an upload or a link)', async () => {
		mockApi(({ path }) =>
			path === '/dashboard/active_storage/blobs/b1'
				? json({
						id: 'b1',
						filename: 'card.png',
						contentType: 'image/png',
						byteSize: 10,
						checksum: 'x',
						status: 'uploaded',
						createdAt: '2026-01-01T10:00:00.000Z',
						url: 'https://files.example/card.png',
					})
				: undefined,
		)
		renderPanel({
			page: {
				pageTitle: 'Tell us about your project',
				pageDescription: 'Two minutes, and we answer within a day.',
				pageThumbnail: { blobId: 'b1' },
				favicon: null,
				extras: { indexable: true },
			},
		})
		const card = await screen.findByRole('figure', { name: 'How the link shows when shared' })
		expect(within(card).getByTestId('card-title')).toHaveTextContent('Tell us about your project')
		expect(within(card).getByTestId('card-description')).toHaveTextContent('Two minutes, and we answer within a day.')
		await waitFor(() => expect(card.querySelector('img')).toHaveAttribute('src', 'https://files.example/card.png'))
		expect(screen.queryByText(/No thumbnail/)).not.toBeInTheDocument()
	})
})

describe('the Share button', () => {
	test('shows once the form is published and opens the panel', async () => {
		mockApi(() => undefined)
		shown = makeForm({ published: true })
		const { user } = renderPage(HeaderPage, '/forms/:id/edit', '/forms/f1/edit')
		await user.click(screen.getByRole('button', { name: 'Share' }))
		const dialog = await screen.findByRole('dialog', { name: 'Share Lead form' })
		expect(within(dialog).getByText('Anyone with the link can open the form and answer it.')).toBeInTheDocument()
		await user.keyboard('{Escape}')
		await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
		await waitFor(() => expect(screen.getByRole('button', { name: 'Share' })).toHaveFocus())
	})

	test('a draft has no Share button; the panel opens by itself at its first publish, not at later ones', async () => {
		mockApi(() => undefined)
		const { user } = renderPage(PublishingPage, '/forms/:id/edit', '/forms/f1/edit')
		expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument()
		setPublished(true)
		const dialog = await screen.findByRole('dialog', { name: 'Share Lead form' })
		expect(within(dialog).getByText(/Your form is published/)).toBeInTheDocument()
		await user.keyboard('{Escape}')
		await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

		setPublished(false)
		await waitFor(() => expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument())
		setPublished(true)
		await screen.findByRole('button', { name: 'Share' })
		await new Promise((resolve) => setTimeout(resolve, 50))
		expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
	})

	test('a published form’s menu in the list offers Share…; a draft’s does not', async () => {
		mockApi(() => undefined)
		shown = makeForm({ published: true })
		const { user, unmount } = renderPage(ListRowPage, '/forms', '/forms')
		await user.click(screen.getByRole('button', { name: 'Actions for Lead form' }))
		await user.click(await screen.findByRole('menuitem', { name: 'Share…' }))
		expect(await screen.findByRole('dialog', { name: 'Share Lead form' })).toBeInTheDocument()
		unmount()

		shown = makeForm({ published: false })
		const draft = renderPage(ListRowPage, '/forms', '/forms')
		await draft.user.click(screen.getByRole('button', { name: 'Actions for Lead form' }))
		await screen.findByRole('menuitem', { name: /Duplicate/ })
		expect(screen.queryByRole('menuitem', { name: 'Share…' })).not.toBeInTheDocument()
	})
})
