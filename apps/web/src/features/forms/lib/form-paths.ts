// The builder's routes, in one place so links and redirects never drift apart. The public
// page (`/forms/{slug or id}`) lives outside the dashboard.

const encode = encodeURIComponent

export const formPaths = {
	list: '/forms',
	edit: (id: string) => `/forms/${encode(id)}/edit`,
	submissions: (id: string) => `/forms/${encode(id)}/submissions`,
	analytics: (id: string) => `/forms/${encode(id)}/analytics`,
	/** The address visitors use: the custom one when set, else the id. */
	public: (form: { id: string; slug: string | null }) => `/forms/${encode(form.slug ?? form.id)}`,
}

/** The public page's full address, to copy and share. */
export function publicUrl(form: { id: string; slug: string | null }): string {
	return `${window.location.origin}${formPaths.public(form)}`
}
