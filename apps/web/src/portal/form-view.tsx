import type { PortalFormOpen, PortalMe } from '@blocksmith/contracts/portals.ts'
import { useEffect, useRef, useState } from 'react'
import { setTitle } from './branding.ts'
import { usePortal, useResource } from './portal-context.tsx'
import { Loading, Message } from './ui.tsx'

// One of the team's forms, filled in from the portal (issue 18 item 5): the server hands out the
// form's public page with the member's signed identity, and links the answer's row to them
// itself. The page is framed here when it is on this origin; on a custom domain the form lives on
// the main host, which the portal's CSP does not frame, so the tab goes there instead.

const minHeight = 480

export function FormView({ formId, me }: { formId: string; me: PortalMe }) {
	const { call, info } = usePortal()
	const form = me.forms.find((candidate) => candidate.id === formId)
	const opened = useResource(`form:${formId}`, (signal) =>
		form
			? call<PortalFormOpen>(`/forms/${encodeURIComponent(formId)}/open`, { json: {}, signal })
			: Promise.reject(new Error('not a form of this portal')),
	)
	const frame = useRef<HTMLIFrameElement>(null)
	const [height, setHeight] = useState(minHeight)
	const href = opened.status === 'ready' ? new URL(opened.data.url, window.location.href).href : null
	const isSameOrigin = href !== null && new URL(href).origin === window.location.origin

	useEffect(() => {
		setTitle(form?.title, info.name)
	}, [form?.title, info.name])

	useEffect(() => {
		if (href && !isSameOrigin) {
			// Replaced, so that Back from the form returns to the portal page the member came from.
			window.location.replace(href)
		}
	}, [href, isSameOrigin])

	// The form page reports its height (features/forms/public/embedded.ts): the frame follows it.
	useEffect(() => {
		const onMessage = (event: MessageEvent) => {
			const data = event.data as { type?: unknown; height?: unknown } | null
			if (
				event.source === frame.current?.contentWindow &&
				data?.type === 'blocksmith:form-height' &&
				typeof data.height === 'number'
			) {
				setHeight(Math.max(minHeight, Math.ceil(data.height)))
			}
		}
		window.addEventListener('message', onMessage)
		return () => window.removeEventListener('message', onMessage)
	}, [])

	if (!form || (opened.status === 'error' && opened.error.status === 404)) {
		return <Message title="This form is not here">It may have been removed from the portal.</Message>
	}
	if (opened.status === 'error') {
		return <Message title="This form could not be opened">{opened.error.message}</Message>
	}
	if (!href || !isSameOrigin) {
		return <Loading label="Opening the form…" />
	}
	return (
		<div className="mx-auto max-w-3xl">
			{/* The form shows its own title inside the frame; this one names the portal's page. */}
			<h1 className="sr-only">{form.title}</h1>
			<iframe ref={frame} src={href} title={form.title} style={{ height }} className="w-full border-0" />
		</div>
	)
}
