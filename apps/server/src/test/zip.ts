import yauzl from 'yauzl'

// Reading a ZIP in tests: the export's archive, in the server's tests and the browser journeys.

/** A ZIP's files in the order they are stored, read with yauzl (CRCs checked). */
export function readZip(bytes: Uint8Array): Promise<Map<string, Buffer>> {
	return new Promise((resolve, reject) => {
		yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (error, zip) => {
			if (error || !zip) {
				reject(error ?? new Error('no zip'))
				return
			}
			const files = new Map<string, Buffer>()
			zip.on('error', reject)
			zip.on('end', () => resolve(files))
			zip.on('entry', (entry: yauzl.Entry) => {
				zip.openReadStream(entry, (streamError, stream) => {
					if (streamError || !stream) {
						reject(streamError ?? new Error('no stream'))
						return
					}
					const chunks: Buffer[] = []
					stream.on('data', (chunk: Buffer) => chunks.push(chunk))
					stream.on('error', reject)
					stream.on('end', () => {
						files.set(entry.fileName, Buffer.concat(chunks))
						zip.readEntry()
					})
				})
			})
			zip.readEntry()
		})
	})
}
