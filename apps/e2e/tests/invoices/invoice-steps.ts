import assert from 'node:assert/strict'
import { crc32, deflateSync } from 'node:zlib'
import type { Locator } from 'playwright-core'

// What the invoice story needs besides the app: a logo to upload (a PNG made here, so no binary
// file sits in the repository), the size of a PNG, a blank page to compare a drawn PDF page
// with, and the few parts of the app the story finds by the names a user reads.

function chunk(type: string, data: Buffer): Buffer {
	const length = Buffer.alloc(4)
	length.writeUInt32BE(data.length)
	const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
	const sum = Buffer.alloc(4)
	sum.writeUInt32BE(crc32(body))
	return Buffer.concat([length, body, sum])
}

/** A `width` × `height` RGB PNG: a band of `color` on white, like a wordmark. */
export function logoPng(width: number, height: number, color: [number, number, number]): Buffer {
	const header = Buffer.alloc(13)
	header.writeUInt32BE(width, 0)
	header.writeUInt32BE(height, 4)
	header.set([8, 2, 0, 0, 0], 8) // 8 bits, truecolour, deflate, no filter, no interlace
	const rows: Buffer[] = []
	for (let y = 0; y < height; y++) {
		const row = Buffer.alloc(1 + width * 3, 255) // filter byte 0, then white pixels
		row[0] = 0
		const isBand = y > height / 4 && y < (height * 3) / 4
		for (let x = 0; x < width; x++) {
			if (isBand && x > width / 8 && x < (width * 7) / 8) {
				row.set(color, 1 + x * 3)
			}
		}
		rows.push(row)
	}
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(Buffer.concat(rows))),
		chunk('IEND', Buffer.alloc(0)),
	])
}

/** The width and height a PNG declares (its IHDR chunk), failing on anything that is not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } {
	assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'not a PNG')
	assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR', 'a PNG without its header')
	return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

/**
 * An empty A4 page as a PDF, drawn next to the invoice's page so that "the page has something
 * on it" is a comparison, not a guess of bytes.
 */
export function blankA4Pdf(): Uint8Array {
	const objects = [
		'<</Type /Catalog /Pages 2 0 R>>',
		'<</Type /Pages /Kids [3 0 R] /Count 1>>',
		'<</Type /Page /Parent 2 0 R /MediaBox [0 0 595.28 841.89]>>',
	]
	let pdf = '%PDF-1.4\n'
	const offsets: number[] = []
	objects.forEach((object, index) => {
		offsets.push(pdf.length)
		pdf += `${index + 1} 0 obj\n${object}\nendobj\n`
	})
	const xref = pdf.length
	pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
	pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')
	pdf += `trailer\n<</Size ${objects.length + 1} /Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`
	return new TextEncoder().encode(pdf)
}

/** Picks the option of a select whose text matches `label` (e.g. "Invoices (…)" whatever the workspace's name). */
export async function selectOptionMatching(select: Locator, label: RegExp): Promise<void> {
	await select.locator('option', { hasText: label }).first().waitFor({ state: 'attached' })
	const texts = await select.locator('option').allTextContents()
	const wanted = texts.find((text) => label.test(text))
	assert.ok(wanted, `no option like ${label} in ${texts.join(' | ')}`)
	await select.selectOption({ label: wanted })
}
