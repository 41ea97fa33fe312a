import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'

// A page of a PDF drawn as a PNG by PDF.js in the journeys' own Chromium, so a journey (and the
// screenshots) can look at an invoice as a reader would, not only at its text. PDF.js is the
// build bundled with unpdf (no worker needed); it is served to a blank page of a made-up origin,
// away from the app's CSP.

const origin = 'http://pdf-render.invalid'
let pdfjs: Promise<Buffer> | undefined

function pdfjsSource(): Promise<Buffer> {
	pdfjs ??= readFile(fileURLToPath(import.meta.resolve('unpdf/pdfjs')))
	return pdfjs
}

/** Page `pageNumber` (1-based) of `pdf`, drawn at `scale` (2 = 144 dpi), as PNG bytes. */
export async function pdfPageToPng(browser: Browser, pdf: Uint8Array, pageNumber = 1, scale = 2): Promise<Buffer> {
	const context = await browser.newContext({ viewport: { width: 1400, height: 1900 } })
	try {
		const page = await context.newPage()
		const source = await pdfjsSource()
		await page.route(`${origin}/**`, async (route) => {
			const path = new URL(route.request().url()).pathname
			if (path === '/pdf.mjs') {
				await route.fulfill({ body: source, contentType: 'text/javascript' })
			} else if (path === '/document.pdf') {
				await route.fulfill({ body: Buffer.from(pdf), contentType: 'application/pdf' })
			} else {
				await route.fulfill({
					body: '<!doctype html><title>PDF</title><body style="margin:0;background:#888">',
					contentType: 'text/html',
				})
			}
		})
		await page.goto(`${origin}/`)
		const size = await page.evaluate(
			async ({ pageNumber, scale }) => {
				const { getDocument } = await import('/pdf.mjs' as string)
				const data = new Uint8Array(await (await fetch('/document.pdf')).arrayBuffer())
				const document = await getDocument({ data, isEvalSupported: false }).promise
				const pdfPage = await document.getPage(pageNumber)
				const viewport = pdfPage.getViewport({ scale })
				const canvas = window.document.createElement('canvas')
				canvas.id = 'pdf-page'
				canvas.width = Math.ceil(viewport.width)
				canvas.height = Math.ceil(viewport.height)
				canvas.style.display = 'block'
				window.document.body.append(canvas)
				const context2d = canvas.getContext('2d')
				await pdfPage.render({ canvasContext: context2d, viewport, canvas }).promise
				return { width: canvas.width, height: canvas.height, pages: document.numPages }
			},
			{ pageNumber, scale },
		)
		if (size.width === 0 || size.height === 0) {
			throw new Error('PDF.js drew an empty page')
		}
		await page.setViewportSize({ width: size.width, height: size.height })
		return await page.locator('#pdf-page').screenshot({ type: 'png' })
	} finally {
		await context.close()
	}
}
