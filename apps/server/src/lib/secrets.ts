import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { deriveKey } from './signing.ts'

/**
 * Secrets kept at rest (workspace tokens): AES-256-GCM under a key derived from AUTH_SECRET
 * for this purpose alone. The sealed form is `v1.<iv>.<tag>.<ciphertext>` in base64url, so a
 * later key rotation can tell versions apart.
 */
export function createSecretBox(authSecret: string) {
	const key = deriveKey(authSecret, 'secrets-at-rest')
	return {
		seal(plain: string): string {
			const iv = randomBytes(12)
			const cipher = createCipheriv('aes-256-gcm', key, iv)
			const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
			return ['v1', iv, cipher.getAuthTag(), data]
				.map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
				.join('.')
		},
		open(sealed: string): string {
			const [version, iv, tag, data] = sealed.split('.')
			if (version !== 'v1' || !iv || !tag || data === undefined) {
				throw new Error('not a sealed secret')
			}
			const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
			decipher.setAuthTag(Buffer.from(tag, 'base64url'))
			return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')
		},
	}
}

export type SecretBox = ReturnType<typeof createSecretBox>
