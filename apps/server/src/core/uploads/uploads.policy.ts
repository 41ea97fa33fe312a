/** The file types we accept: documents, images, media and archives — nothing executable. */
const allowedContentTypes = new Set([
	'image/png',
	'image/jpeg',
	'image/gif',
	'image/webp',
	'image/avif',
	'image/svg+xml',
	'application/pdf',
	'text/plain',
	'text/csv',
	'text/markdown',
	'application/json',
	'application/msword',
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	'application/vnd.ms-excel',
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	'application/vnd.ms-powerpoint',
	'application/vnd.openxmlformats-officedocument.presentationml.presentation',
	'application/vnd.oasis.opendocument.text',
	'application/vnd.oasis.opendocument.spreadsheet',
	'application/zip',
	'audio/mpeg',
	'audio/wav',
	'video/mp4',
	'video/webm',
])

export function normaliseContentType(contentType: string): string {
	return (contentType.split(';')[0] ?? '').trim().toLowerCase()
}

export function isAllowedContentType(contentType: string): boolean {
	return allowedContentTypes.has(normaliseContentType(contentType))
}

/** Raster images are safe to show inline; everything else (SVG and HTML-like types included) downloads. */
export function isInlineSafe(contentType: string): boolean {
	return ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'].includes(
		normaliseContentType(contentType),
	)
}
