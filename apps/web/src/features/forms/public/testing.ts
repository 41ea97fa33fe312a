import type { PublicField, PublicForm } from '@blocksmith/contracts/forms.ts'
import { vi } from 'vitest'

// What the public page's tests share: JSON and problem answers, a fetch stub that records each
// call, and a form with fields of any kind.

export type Call = { method: string; path: string; url: URL; body: Record<string, unknown> | undefined }

export function json(status: number, body: unknown, headers: Record<string, string> = {}) {
	return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
}

export function problem(status: number, code: string, detail: string, errors?: { field: string; message: string }[]) {
	return json(status, { type: 'about:blank', title: code, status, code, detail, ...(errors ? { errors } : {}) })
}

/** Stubs fetch with `handler`; returns every call made, bodies parsed. */
export function mockFetch(handler: (call: Call) => Response | Promise<Response>) {
	const calls: Call[] = []
	vi.stubGlobal(
		'fetch',
		vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
			const url = new URL(String(input), 'http://localhost')
			const call: Call = {
				method: init?.method ?? 'GET',
				path: url.pathname,
				url,
				body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined,
			}
			calls.push(call)
			return handler(call)
		}),
	)
	return calls
}

export function field(
	id: string,
	kind: PublicField['kind'],
	label: string,
	extra: Partial<PublicField> = {},
): PublicField {
	return {
		id,
		propertyId: `p-${id}`,
		kind,
		label,
		helpText: null,
		placeholder: null,
		required: false,
		defaultValue: null,
		includeTime: false,
		hidden: false,
		param: null,
		fileRules: null,
		maxLength: null,
		choices: null,
		scale: null,
		matrix: null,
		calculation: null,
		body: null,
		image: null,
		...extra,
	}
}

export function makeForm(fields: PublicField[], extra: Partial<PublicForm> = {}): PublicForm {
	return {
		id: 'f1',
		slug: null,
		tool: 'local',
		logic: [],
		layout: { display: 'classic', showProgress: true },
		oneResponsePer: 'none',
		name: 'Enquiry',
		pageTitle: 'Get in touch',
		pageDescription: 'Tell us about your project.',
		pageThumbnail: null,
		favicon: null,
		extras: { indexable: false },
		fields,
		passwordRequired: false,
		acceptingResponses: true,
		closedMessage: null,
		confirmationMessage: 'Thanks!',
		submitLabel: 'Send',
		theme: {
			mode: 'auto',
			accentColor: null,
			accentForeground: null,
			backgroundColor: null,
			font: 'default',
			corners: 'rounded',
			logo: null,
			cover: null,
			css: null,
			showBranding: true,
		},
		renderToken: 'render-1',
		...extra,
	}
}

/** A page break: the page it starts is named by `label` and has `id` as its page id. */
export function pageBreak(id: string, label: string): PublicField {
	return field(id, 'page_break', label, { propertyId: null })
}
