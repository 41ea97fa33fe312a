import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

/**
 * A key for one purpose, derived from AUTH_SECRET, so that a signature made for one purpose
 * (an upload URL, say) can never be replayed as another.
 */
export function deriveKey(secret: string, purpose: string): Buffer {
	return Buffer.from(hkdfSync('sha256', secret, 'blocksmith', purpose, 32))
}

export function sign(key: Buffer, message: string): string {
	return createHmac('sha256', key).update(message).digest('base64url')
}

export function isValidSignature(key: Buffer, message: string, signature: string): boolean {
	const expected = Buffer.from(sign(key, message))
	const given = Buffer.from(signature)
	return expected.length === given.length && timingSafeEqual(expected, given)
}
