import { createHash } from 'node:crypto'
import { expect, test } from 'vitest'
import { md5, md5Base64 } from './md5.ts'

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
const encode = (text: string) => new TextEncoder().encode(text)

test('the RFC 1321 test vectors', () => {
	expect(hex(md5(encode('')))).toBe('d41d8cd98f00b204e9800998ecf8427e')
	expect(hex(md5(encode('abc')))).toBe('900150983cd24fb0d6963f7d28e17f72')
	expect(hex(md5(encode('message digest')))).toBe('f96b697d7cb7938d525a2f31aaf161d0')
	expect(hex(md5(encode('1234567890'.repeat(8))))).toBe('57edf4a22be3c955ac49da2e2107b67a')
})

test('agrees with node:crypto on lengths around the block edges, as base64', () => {
	for (const length of [55, 56, 63, 64, 65, 1000, 70_000]) {
		const bytes = Uint8Array.from({ length }, (_, index) => (index * 31 + 7) % 256)
		expect(md5Base64(bytes)).toBe(createHash('md5').update(bytes).digest('base64'))
	}
})
