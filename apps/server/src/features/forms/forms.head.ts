import type { PageImage, PublicForm } from '@blocksmith/contracts/forms.ts'
import { and, eq } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import { SafeFetchError, safeFetch } from '#src/lib/safe-fetch.ts'
import { sanitizeSvg, svgDataUri } from '#src/lib/svg.ts'
import type { FormsDeps } from './forms.deps.ts'

// The head of a public form page: written by the server into the HTML, so crawlers and link
// previews see it without running JavaScript. An SVG image (thumbnail, favicon, theme or image
// item) is fetched (an upload from storage, a link through the SSRF-safe fetch), sanitised and
// inlined as a `data:` URI; anything else is linked.

/** A page image, a theme image, or an image item's picture (`fields/<fieldId>`). */
export type PageAsset = 'thumbnail' | 'favicon' | 'logo' | 'cover' | `fields/${string}`

/** The asset of an image item. */
export function fieldAsset(fieldId: string): PageAsset {
	return `fields/${fieldId}`
}

/** The browser bar's colour when the form has no accent: the product's indigo (as index.html). */
const defaultThemeColor = '#4338ca'

/** Limits on fetching a linked SVG: a slow or huge image must not hold up the page. */
const svgFetchLimits = { timeoutMs: 3000, maxBytes: 256 * 1024 }

const cacheTtlMs = 10 * 60 * 1000
const cacheLimit = 500
/** Inlined SVGs by source, so a busy page does not fetch and sanitise on every view. */
const svgCache = new Map<string, { value: string | null; expires: number }>()

async function cached(key: string, load: () => Promise<string | null>): Promise<string | null> {
	const hit = svgCache.get(key)
	if (hit && hit.expires > Date.now()) {
		return hit.value
	}
	const value = await load()
	if (svgCache.size >= cacheLimit) {
		svgCache.delete(svgCache.keys().next().value as string)
	}
	svgCache.set(key, { value, expires: Date.now() + cacheTtlMs })
	return value
}

function isSvgName(name: string): boolean {
	return /\.svg$/i.test(name)
}

function pathOf(url: string): string {
	try {
		return new URL(url).pathname
	} catch {
		return url
	}
}

/**
 * The image as the head uses it: an absolute URL, a `data:` URI for an SVG, or null when it
 * cannot be shown (an SVG that is refused, unreachable or missing). `unlockToken` goes with the
 * URL of an upload that is only served to who unlocked the form (an image item's, forms.public.ts
 * `openPageAsset`): an <img> sends no header, so the token travels in the address.
 */
export async function resolvePageImage(
	deps: FormsDeps,
	form: { id: string; organizationId: string },
	image: PageImage | null,
	asset: PageAsset,
	unlockToken: string | null = null,
): Promise<string | null> {
	if (!image) {
		return null
	}
	if ('url' in image) {
		if (!isSvgName(pathOf(image.url))) {
			return image.url
		}
		return cached(`url:${image.url}`, async () => {
			try {
				const { bytes } = await safeFetch(image.url, { ...svgFetchLimits, accept: 'image/svg+xml' })
				const svg = sanitizeSvg(bytes, { maxBytes: svgFetchLimits.maxBytes })
				return svg === null ? null : svgDataUri(svg)
			} catch (error) {
				if (!(error instanceof SafeFetchError)) {
					throw error
				}
				deps.log.warn({ formId: form.id, url: image.url, reason: error.reason }, 'page image not fetched')
				return null
			}
		})
	}
	const [blob] = await deps.db
		.select()
		.from(blobs)
		.where(and(eq(blobs.id, image.blobId), eq(blobs.organizationId, form.organizationId)))
	if (blob?.status !== 'uploaded') {
		return null
	}
	if (!isSvgName(blob.filename) && blob.contentType !== 'image/svg+xml') {
		const path = asset.startsWith('fields/') ? `fields/${encodeURIComponent(asset.slice('fields/'.length))}` : asset
		const query = unlockToken ? `?unlockToken=${encodeURIComponent(unlockToken)}` : ''
		return `${deps.publicUrl}/api/forms/${form.id}/assets/${path}${query}`
	}
	return cached(`blob:${blob.id}`, async () => {
		const file = await deps.storage.get(blob.key)
		if (!file) {
			return null
		}
		if (file.byteSize > svgFetchLimits.maxBytes) {
			await file.body.cancel()
			return null
		}
		const svg = sanitizeSvg(await readAll(file.body), { maxBytes: svgFetchLimits.maxBytes })
		return svg === null ? null : svgDataUri(svg)
	})
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
	return new Uint8Array(await new Response(stream).arrayBuffer())
}

function escapeAttribute(value: string): string {
	return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

function escapeText(value: string): string {
	return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

/** The tags of the page head, from the form's page data. */
export function renderHead(form: PublicForm | null, pageUrl: string): string {
	if (!form) {
		return [
			'<title>Form not available</title>',
			'<meta name="robots" content="noindex" />',
			'<link rel="icon" type="image/svg+xml" href="/favicon.svg" />',
		].join('')
	}
	const title = form.pageTitle || form.name
	const tags = [
		`<title>${escapeText(title)}</title>`,
		`<meta property="og:title" content="${escapeAttribute(title)}" />`,
		`<meta name="twitter:title" content="${escapeAttribute(title)}" />`,
		'<meta property="og:type" content="website" />',
		`<meta property="og:url" content="${escapeAttribute(pageUrl)}" />`,
	]
	if (form.pageDescription) {
		const description = escapeAttribute(form.pageDescription)
		tags.push(
			`<meta name="description" content="${description}" />`,
			`<meta property="og:description" content="${description}" />`,
			`<meta name="twitter:description" content="${description}" />`,
		)
	}
	if (form.pageThumbnail) {
		const image = escapeAttribute(form.pageThumbnail)
		tags.push(
			`<meta property="og:image" content="${image}" />`,
			`<meta name="twitter:image" content="${image}" />`,
			'<meta name="twitter:card" content="summary_large_image" />',
		)
	} else {
		tags.push('<meta name="twitter:card" content="summary" />')
	}
	// The default head's icon is replaced; without one of its own the page keeps the product's.
	tags.push(
		form.favicon
			? `<link rel="icon" href="${escapeAttribute(form.favicon)}" />`
			: '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />',
	)
	// The browser's bar and a phone's status bar take the form's accent (issue 19).
	tags.push(`<meta name="theme-color" content="${escapeAttribute(form.theme.accentColor ?? defaultThemeColor)}" />`)
	if (!form.extras.indexable) {
		tags.push('<meta name="robots" content="noindex" />')
	}
	return tags.join('')
}
