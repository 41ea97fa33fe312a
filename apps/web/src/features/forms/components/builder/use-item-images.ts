import type { FormField } from '@blocksmith/contracts/forms.ts'
import { useQueries } from '@tanstack/react-query'
import { blobQuery } from '../../api/forms.ts'
import type { LocalUploads } from '../page-settings.tsx'

/** The address to show each image item's picture at in the preview: a link as is, an upload by its blob. */
export function useItemImages(fields: readonly FormField[], uploads: LocalUploads): Record<string, string | null> {
	const images = fields.filter((field) => field.kind === 'image' && field.image)
	const blobIds = images.flatMap((field) =>
		field.image && 'blobId' in field.image && !uploads[field.image.blobId] ? [field.image.blobId] : [],
	)
	const blobs = useQueries({ queries: blobIds.map((id) => blobQuery(id)) })
	const urls = new Map(blobIds.map((id, index) => [id, blobs[index]?.data?.url ?? null]))
	return Object.fromEntries(
		images.map((field) => {
			const image = field.image
			if (!image) {
				return [field.id, null]
			}
			if ('url' in image) {
				return [field.id, image.url]
			}
			return [field.id, uploads[image.blobId]?.url ?? urls.get(image.blobId) ?? null]
		}),
	)
}
