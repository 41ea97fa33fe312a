/**
 * What a module's server-rendered page gives the web app's HTML: tags for the head (they
 * replace the default title, description and favicon), data the page reads without a second
 * request, and the status — or a redirect.
 */
export type PageRender =
	| { status: number; head: string; data: Record<string, unknown> }
	| { redirect: string; status?: 301 | 302 }
