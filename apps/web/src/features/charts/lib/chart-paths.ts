// The charts' routes, in one place so links and redirects never drift apart. The public page
// (`/charts/{id}`) is served by the server, not by this app: link to it with a plain <a>.

const encode = encodeURIComponent

export const chartPaths = {
	list: '/charts',
	/** With the chart's tool when the link knows it: the builder then asks only that tool for it. */
	edit: (id: string, tool?: 'local' | 'notion') => `/charts/${encode(id)}/edit${tool ? `?tool=${tool}` : ''}`,
	public: (id: string) => `/charts/${encode(id)}`,
}

/** The public page's full address, to open or share. */
export function publicChartUrl(id: string): string {
	return `${window.location.origin}${chartPaths.public(id)}`
}

/** The address to embed: it follows the viewer's light or dark appearance (Notion's too). */
export function embedChartUrl(id: string): string {
	return `${publicChartUrl(id)}?theme=auto`
}
