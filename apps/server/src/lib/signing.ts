import { createHmac, createSecretKey, hkdfSync, type KeyObject, timingSafeEqual } from 'node:crypto'

/** Keys derived so far: a few purposes per secret, one secret per process (tests make more). */
const derivedKeys = new Map<string, KeyObject>()

/**
 * A key for one purpose, derived from AUTH_SECRET, so that a signature made for one purpose
 * (an upload URL, say) can never be replayed as another.
 */
export function deriveKey(secret: string, purpose: string): KeyObject {
	// Derived once per secret and purpose: HKDF on every form answer was 1-2 % of its CPU.
	const id = `${purpose}\u0000${secret}`
	let key = derivedKeys.get(id)
	if (!key) {
		// A KeyObject, not the bytes: given bytes, every HMAC imports the key again.
		key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'blocksmith', purpose, 32)))
		derivedKeys.set(id, key)
	}
	return key
}

export function sign(key: KeyObject, message: string): string {
	return createHmac('sha256', key).update(message).digest('base64url')
}

export function isValidSignature(key: KeyObject, message: string, signature: string): boolean {
	const expected = Buffer.from(sign(key, message))
	const given = Buffer.from(signature)
	return expected.length === given.length && timingSafeEqual(expected, given)
}
