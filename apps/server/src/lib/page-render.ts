/**
 * What a module's server-rendered page gives the web app's HTML: tags for the head (they
 * replace the default title, description and favicon), data the page reads without a second
 * request, and the status — or a redirect. `body`, when given, is markup put inside the
 * template's `<div id="root">`: a page that shows its content before (or without) any script,
 * such as a chart drawn on the server. It must be escaped by whoever writes it.
 */
export type PageRender =
	| { status: number; head: string; data: Record<string, unknown>; body?: string }
	| { redirect: string; status?: 301 | 302 }
