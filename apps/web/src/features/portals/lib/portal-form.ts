import {
	type Portal,
	type PortalPage,
	type PortalSetupInput,
	portalSetupInputSchema,
} from '@blocksmith/contracts/portals.ts'

// The setup form's values (text as typed: empty strings where the API has null) and the moves
// between them and the API's portal. The payload is checked in the browser with the server's
// own schema, so an error lands on the same field either way (`pages.0.rule.property`).

export type PortalFormValues = {
	name: string
	slug: string
	customDomain: string
	isEnabled: boolean
	branding: {
		logoBlobId: string | null
		accentColor: string
		/** '' for none: the portal's theme decides. */
		backgroundColor: string
		theme: 'light' | 'dark' | 'system'
		welcome: string
	}
	access: {
		companiesDatabaseId: string
		membersDatabaseId: string
		membersEmailProperty: string
		allowPasswords: boolean
	}
	pages: PortalPage[]
	/** Kept as saved: the portal's forms, invoices and charts are set elsewhere. */
	rest: Pick<PortalSetupInput, 'forms' | 'showInvoices' | 'charts'>
}

export type FieldProblem = { field: string; message: string }

export function portalValues(portal: Portal): PortalFormValues {
	return {
		name: portal.name,
		slug: portal.slug,
		customDomain: portal.customDomain ?? '',
		isEnabled: portal.isEnabled,
		branding: {
			logoBlobId: portal.branding.logoBlobId,
			accentColor: portal.branding.accentColor,
			backgroundColor: portal.branding.backgroundColor ?? '',
			theme: portal.branding.theme,
			welcome: portal.branding.welcome,
		},
		access: {
			companiesDatabaseId: portal.access.companiesDatabaseId ?? '',
			membersDatabaseId: portal.access.membersDatabaseId ?? '',
			membersEmailProperty: portal.access.membersEmailProperty ?? '',
			allowPasswords: portal.access.allowPasswords,
		},
		pages: structuredClone(portal.pages),
		rest: { forms: portal.forms, showInvoices: portal.showInvoices, charts: portal.charts },
	}
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim())

export function portalPayload(values: PortalFormValues, id: string | undefined): PortalSetupInput {
	return {
		...(id ? { id } : {}),
		name: values.name,
		slug: values.slug,
		customDomain: orNull(values.customDomain),
		isEnabled: values.isEnabled,
		branding: {
			logoBlobId: values.branding.logoBlobId,
			accentColor: values.branding.accentColor,
			backgroundColor: orNull(values.branding.backgroundColor),
			theme: values.branding.theme,
			welcome: values.branding.welcome,
		},
		access: {
			companiesDatabaseId: orNull(values.access.companiesDatabaseId),
			membersDatabaseId: orNull(values.access.membersDatabaseId),
			// The e-mail property means nothing without the members database.
			membersEmailProperty: values.access.membersDatabaseId ? orNull(values.access.membersEmailProperty) : null,
			allowPasswords: values.access.allowPasswords,
		},
		pages: values.pages.map((page) => ({
			...page,
			groupBy: page.view === 'board' ? page.groupBy : null,
			coverProperty: page.view === 'gallery' ? page.coverProperty : null,
			// Only shown properties can be filtered by (the server refuses the others).
			filterable: page.filterable.filter((ref) => page.properties.includes(ref)),
		})),
		...values.rest,
	}
}

/** What the server's schema says of the payload, plus what it can only check with the rest (a board needs its group). */
export function checkPayload(payload: PortalSetupInput): FieldProblem[] {
	const problems: FieldProblem[] = []
	const parsed = portalSetupInputSchema.safeParse(payload)
	if (!parsed.success) {
		for (const issue of parsed.error.issues) {
			const field = issue.path.join('.')
			// A page added without a rule the database suggests has an empty one: say what to do.
			const isUnsetRule = /^pages\.\d+\.rule\.property$/.test(field) && issue.code === 'too_small'
			problems.push({ field, message: isUnsetRule ? 'Choose which rows a member sees.' : issue.message })
		}
	}
	for (const [index, page] of (payload.pages ?? []).entries()) {
		if (page.view === 'board' && !page.groupBy) {
			problems.push({ field: `pages.${index}.groupBy`, message: 'Choose the property the board groups by.' })
		}
	}
	return problems
}

/**
 * The form's path for a problem's: the form keeps the API's shape, but shows a list's problem on
 * the list (`pages.0.properties.2` → `pages.0.properties`) and a page's id or database on its
 * title, the field a person can see; the rest's fields move under `rest`.
 */
export function formFieldOf(field: string): string {
	if (/^(forms|showInvoices|charts)\b/.test(field)) {
		return `rest.${field}`
	}
	return field
		.replace(/^(pages\.\d+\.(properties|filterable))\.\d+$/, '$1')
		.replace(/^(pages\.\d+)\.(id|databaseId)$/, '$1.title')
}

/** `Acme Design Studio` → `acme-design-studio`; at least 3 characters, at most 48. */
export function slugify(text: string): string {
	const slug = text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		// "Ada's studio" → ada-s-studio reads badly: an apostrophe joins.
		.replace(/['’]/g, '')
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 40)
		.replace(/-+$/g, '')
	return slug.length >= 3 ? slug : `${slug ? `${slug}-` : ''}portal`
}

/** A page's id from its title, unique among the portal's pages. */
export function pageIdFor(title: string, taken: readonly string[]): string {
	const stem = slugify(title).slice(0, 34)
	let id = stem
	for (let count = 2; taken.includes(id); count++) {
		id = `${stem}-${count}`
	}
	return id
}

/** Where members open it on this server (the custom domain, when the proxy sends it, serves it at `/`). */
export function portalLink(slug: string): string {
	const origin = typeof window === 'undefined' ? '' : window.location.origin
	return `${origin}/p/${slug || '…'}`
}
