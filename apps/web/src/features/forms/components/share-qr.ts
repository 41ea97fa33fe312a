import QRCode from 'qrcode'

// The QR code of a form's link, for the share panel. Only the panel imports this module, and the
// panel is itself loaded when it opens, so the builder's first load carries none of the encoder.

/** Quiet zone in modules, as scanners expect, and medium error correction: still read when slightly damaged or printed small. */
const options = { margin: 2, errorCorrectionLevel: 'M' as const, color: { dark: '#000000', light: '#ffffff' } }

/** The code as an SVG document (black on white, whatever the app's theme: scanners need the contrast). */
export function qrSvg(text: string): Promise<string> {
	return QRCode.toString(text, { ...options, type: 'svg' })
}

/** The code as a PNG `data:` URL, `size` pixels wide: large enough to print. */
export function qrPng(text: string, size = 1024): Promise<string> {
	return QRCode.toDataURL(text, { ...options, width: size, type: 'image/png' })
}

/** An SVG document as a `data:` URL, for an <img> (which runs nothing in it) and for the download. */
export function svgDataUrl(svg: string): string {
	return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}
