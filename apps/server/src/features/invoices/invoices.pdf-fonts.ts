import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import PDFDocument from 'pdfkit'

// The fonts of invoice PDFs. "sans" is Inter, embedded as a subset (the package that gives chart
// images and the time report's PDF their text). "serif" and "mono" are PDF's own Times and
// Courier: every reader has them, so nothing is fetched or shipped, but they are not embedded
// (a PDF/A such as Factur-X needs sans) and know only the Windows-1252 characters, so a text
// with others (Ł, ő, ₹, Cyrillic…) is drawn in Inter instead (isWinAnsi).
//
// Speed: shaping text with Inter (its OpenType features) is most of a render's time. pdfkit
// parses the font file and caches shaped words per document, so each invoice paid for both
// again. Here the font is parsed once and its shaped words are kept across documents.

type PdfDoc = InstanceType<typeof PDFDocument>
type FontSource = Parameters<PdfDoc['registerFont']>[1]

export type FontPair = { regular: string; bold: string; embedded: boolean }

export const fontPairs = {
	sans: { regular: 'Inter', bold: 'Inter-SemiBold', embedded: true },
	serif: { regular: 'Times-Roman', bold: 'Times-Bold', embedded: false },
	mono: { regular: 'Courier', bold: 'Courier-Bold', embedded: false },
} as const satisfies Record<string, FontPair>

/** The characters above 255 that Windows-1252 (the standard fonts' encoding) has. */
const winAnsiExtra = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')

/** Whether the standard fonts can draw the text. */
export function isWinAnsi(text: string): boolean {
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0
		if ((code > 255 || (code >= 0x80 && code < 0xa0)) && !winAnsiExtra.has(char)) {
			return false
		}
	}
	return true
}

type Position = Record<string, number>
type GlyphRun = { glyphs: unknown[]; positions: Position[] }
type ParsedFont = { layout: (text: string, features?: unknown) => GlyphRun }

const maxCachedWords = 20_000

/**
 * The parsed font with a `layout` that remembers each word's glyphs. pdfkit scales the
 * positions it is given in place, so every caller gets copies; glyphs are only read.
 */
function withLayoutCache(font: ParsedFont): ParsedFont {
	const cache = new Map<string, GlyphRun>()
	const cached = Object.create(font) as ParsedFont
	cached.layout = (text, features) => {
		if (features) {
			return font.layout(text, features)
		}
		let run = cache.get(text)
		if (!run) {
			const shaped = font.layout(text)
			run = { glyphs: shaped.glyphs, positions: shaped.positions.map((position) => ({ ...position })) }
			if (cache.size >= maxCachedWords) {
				cache.clear()
			}
			cache.set(text, run)
		}
		const positions = run.positions.map((position) => ({ ...position }))
		return {
			glyphs: run.glyphs,
			positions,
			// As fontkit's GlyphRun: read after pdfkit has scaled the positions.
			get advanceWidth() {
				return positions.reduce((sum, position) => sum + (position.xAdvance ?? 0), 0)
			},
		}
	}
	return cached
}

/**
 * The font file parsed once. pdfkit takes a parsed font as well as a file, but parses with
 * fontkit, which it keeps to itself, so a throw-away document parses it. Should a pdfkit version
 * no longer expose it there, the file is used: slower, the same output.
 */
function parsedFont(file: Buffer): FontSource {
	const probe = new PDFDocument({ autoFirstPage: false })
	probe.font(file)
	const font = (probe as unknown as { _font?: { font?: ParsedFont } })._font?.font
	return typeof font?.layout === 'function' ? (withLayoutCache(font) as unknown as FontSource) : file
}

let interFonts: { regular: FontSource; semiBold: FontSource } | undefined

/** Inter's regular and semi-bold, read and parsed once. */
export function inter() {
	if (!interFonts) {
		const require = createRequire(import.meta.url)
		const dir = path.dirname(require.resolve('@expo-google-fonts/inter/package.json'))
		interFonts = {
			regular: parsedFont(readFileSync(path.join(dir, '400Regular/Inter_400Regular.ttf'))),
			semiBold: parsedFont(readFileSync(path.join(dir, '600SemiBold/Inter_600SemiBold.ttf'))),
		}
	}
	return interFonts
}
