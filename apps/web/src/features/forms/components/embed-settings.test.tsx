import { screen } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { makeForm } from '../testing.tsx'
import { EmbedSettings } from './embed-settings.tsx'

describe('EmbedSettings', () => {
	test('offers the inline, popup and full-page snippets for the form’s public address', () => {
		renderWithUser(<EmbedSettings form={makeForm({ id: 'f1', slug: 'contact', name: 'Say "hi"', published: true })} />)
		const inline = screen.getByRole('textbox', { name: 'Inline' }) as HTMLTextAreaElement
		expect(inline.value).toContain(`data-blocksmith-form src="${window.location.origin}/forms/contact"`)
		expect(inline.value).toContain('title="Say &quot;hi&quot;"')
		expect(inline.value).toContain(`<script src="${window.location.origin}/embed.js" async></script>`)
		const popup = screen.getByRole('textbox', { name: 'Popup' }) as HTMLTextAreaElement
		expect(popup.value).toContain(`data-blocksmith-popup="${window.location.origin}/forms/contact"`)
		expect((screen.getByRole('textbox', { name: 'Full page' }) as HTMLTextAreaElement).value).toBe(
			`<iframe src="${window.location.origin}/forms/contact" title="Say &quot;hi&quot;" style="position:fixed;inset:0;width:100%;height:100%;border:0"></iframe>`,
		)
		expect(screen.getByRole('button', { name: 'Copy popup snippet' })).toBeTruthy()
	})
})
