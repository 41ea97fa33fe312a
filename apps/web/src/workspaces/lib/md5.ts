// MD5 of a file's bytes, for the direct-upload checksum (Web Crypto has no MD5). Not for security:
// the server uses it only to check that the bytes arrived as announced.

const shifts = [
	7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4,
	11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
]
const constants = Array.from({ length: 64 }, (_, index) => Math.floor(Math.abs(Math.sin(index + 1)) * 2 ** 32) >>> 0)

/** The 16-byte MD5 digest of `bytes`. */
export function md5(bytes: Uint8Array): Uint8Array {
	const length = bytes.length
	const paddedLength = (((length + 8) >>> 6) + 1) << 6
	const buffer = new Uint8Array(paddedLength)
	buffer.set(bytes)
	buffer[length] = 0x80
	const view = new DataView(buffer.buffer)
	view.setUint32(paddedLength - 8, (length * 8) >>> 0, true)
	view.setUint32(paddedLength - 4, Math.floor(length / 0x20000000), true)

	let a0 = 0x67452301
	let b0 = 0xefcdab89
	let c0 = 0x98badcfe
	let d0 = 0x10325476
	const words = new Uint32Array(16)
	for (let offset = 0; offset < paddedLength; offset += 64) {
		for (let index = 0; index < 16; index++) {
			words[index] = view.getUint32(offset + index * 4, true)
		}
		let a = a0
		let b = b0
		let c = c0
		let d = d0
		for (let index = 0; index < 64; index++) {
			let f: number
			let g: number
			if (index < 16) {
				f = (b & c) | (~b & d)
				g = index
			} else if (index < 32) {
				f = (d & b) | (~d & c)
				g = (5 * index + 1) % 16
			} else if (index < 48) {
				f = b ^ c ^ d
				g = (3 * index + 5) % 16
			} else {
				f = c ^ (b | ~d)
				g = (7 * index) % 16
			}
			const sum = (a + f + (constants[index] ?? 0) + (words[g] ?? 0)) >>> 0
			const shift = shifts[index] ?? 0
			a = d
			d = c
			c = b
			b = (b + ((sum << shift) | (sum >>> (32 - shift)))) >>> 0
		}
		a0 = (a0 + a) >>> 0
		b0 = (b0 + b) >>> 0
		c0 = (c0 + c) >>> 0
		d0 = (d0 + d) >>> 0
	}
	const digest = new Uint8Array(16)
	const out = new DataView(digest.buffer)
	out.setUint32(0, a0, true)
	out.setUint32(4, b0, true)
	out.setUint32(8, c0, true)
	out.setUint32(12, d0, true)
	return digest
}

/** Base64 of the MD5 digest: what an HTTP `Content-MD5` header carries. */
export function md5Base64(bytes: Uint8Array): string {
	return btoa(String.fromCharCode(...md5(bytes)))
}
