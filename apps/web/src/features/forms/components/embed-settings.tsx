import type { Form } from '@blocksmith/contracts/forms.ts'
import { Copy } from 'lucide-react'
import { useId } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { publicUrl } from '../lib/form-paths.ts'

// Ways to put a published form on another site, each working against the public page as it is:
// an iframe that follows the form's height and a button that opens it over the page (both with
// /embed.js, which only ever frames forms of this server and listens for the height the page
// reports, public/embedded.ts), and a frame that fills the whole window (the page scrolls inside
// it; no script needed). Published form pages may be framed anywhere (app.ts).

type Snippet = { name: string; description: string; code: string }

function escapeAttribute(value: string): string {
	return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')
}

function escapeText(value: string): string {
	return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;')
}

/** The inline, popup and full-page codes for the form's public address. */
function snippetsFor(form: Pick<Form, 'id' | 'slug' | 'name'>): Snippet[] {
	const url = publicUrl(form)
	const title = escapeAttribute(form.name)
	const script = `<script src="${window.location.origin}/embed.js" async></script>`
	return [
		{
			name: 'Inline',
			description: 'The form inside your page, as tall as it needs to be.',
			code: `<iframe data-blocksmith-form src="${url}" title="${title}" style="width:100%;border:0;min-height:420px" loading="lazy"></iframe>\n${script}`,
		},
		{
			name: 'Popup',
			description: 'A button that opens the form over your page (Escape or × closes it).',
			code: `<button type="button" data-blocksmith-popup="${url}">${escapeText(form.name)}</button>\n${script}`,
		},
		{
			name: 'Full page',
			description: 'The form filling the whole window of a page of yours, scrolling inside it.',
			code: `<iframe src="${url}" title="${title}" style="position:fixed;inset:0;width:100%;height:100%;border:0"></iframe>`,
		},
	]
}

export function EmbedSettings({ form }: { form: Form }) {
	const id = useId()
	async function copy(snippet: Snippet): Promise<void> {
		try {
			await navigator.clipboard.writeText(snippet.code)
			toast.success(`The ${snippet.name.toLowerCase()} snippet was copied.`)
		} catch {
			toast.error('The snippet could not be copied: select it and copy it by hand.')
		}
	}
	return (
		<section className="grid gap-4" aria-labelledby={`${id}-heading`}>
			<div className="grid gap-0.5">
				<h3 id={`${id}-heading`} className="font-semibold text-sm">
					Embed
				</h3>
				<p className="text-muted-foreground text-sm">
					Put the form on your own site.{form.published ? '' : ' Embeds show it once the form is published.'}
				</p>
			</div>
			{snippetsFor(form).map((snippet) => (
				<div key={snippet.name} className="grid gap-1.5">
					<div className="flex items-start justify-between gap-3">
						<div className="min-w-0 flex-1">
							<span id={`${id}-${snippet.name.replaceAll(' ', '-')}`} className="font-medium text-sm">
								{snippet.name}
							</span>
							<p className="text-muted-foreground text-xs">{snippet.description}</p>
						</div>
						<Button variant="outline" size="sm" className="shrink-0" onClick={() => void copy(snippet)}>
							<Copy aria-hidden /> Copy {snippet.name.toLowerCase()} snippet
						</Button>
					</div>
					<textarea
						readOnly
						aria-labelledby={`${id}-${snippet.name.replaceAll(' ', '-')}`}
						value={snippet.code}
						// The full-page code is one line, about three once wrapped; the others two lines, about four.
						rows={snippet.name === 'Full page' ? 3 : 4}
						className="w-full resize-none rounded-md border bg-muted/40 px-3 py-2 font-mono text-xs"
						onFocus={(event) => event.currentTarget.select()}
					/>
				</div>
			))}
		</section>
	)
}
