import { describe, expect, test } from 'vitest'
import { createSecretBox } from './secrets.ts'

describe('secret box', () => {
	const box = createSecretBox('a'.repeat(40))

	test('opens what it sealed, and the sealed form does not contain the secret', () => {
		const sealed = box.seal('ntn_super_secret_token')
		expect(sealed).not.toContain('ntn_super_secret_token')
		expect(box.open(sealed)).toBe('ntn_super_secret_token')
		expect(box.seal('same')).not.toBe(box.seal('same'))
	})

	test('refuses a tampered secret and one sealed under another key', () => {
		const sealed = box.seal('token')
		const parts = sealed.split('.')
		const flipped = [parts[0], parts[1], parts[2], `A${(parts[3] ?? '').slice(1)}`].join('.')
		expect(() => box.open(flipped === sealed ? `${sealed}x` : flipped)).toThrow()
		expect(() => createSecretBox('b'.repeat(40)).open(sealed)).toThrow()
		expect(() => box.open('garbage')).toThrow()
	})
})
