import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { emailSchema, passwordSchema } from './common.ts'
import { errorStatusByCode, problemSchema } from './errors.ts'
import { createInvitationSchema } from './teams.ts'
import { checksumSchema, directUploadRequestSchema } from './uploads.ts'

describe('contracts', () => {
	test('every error code maps to a 4xx or 5xx status', () => {
		for (const status of Object.values(errorStatusByCode)) {
			expect(status).toBeGreaterThanOrEqual(400)
			expect(status).toBeLessThan(600)
		}
	})

	test('a problem carries a code from the closed list', () => {
		const problem = { type: '/problems/not-found', title: 'Not found', status: 404, detail: 'x', code: 'NOT_FOUND' }
		expect(problemSchema.parse(problem)).toEqual(problem)
		expect(problemSchema.safeParse({ ...problem, code: 'SOMETHING_ELSE' }).success).toBe(false)
	})

	test('e-mail addresses are compared lower-case', () => {
		expect(emailSchema.parse('Ada@Example.COM')).toBe('ada@example.com')
		expect(emailSchema.safeParse('not an address').success).toBe(false)
	})

	test('passwords are 8 to 128 characters', () => {
		expect(passwordSchema.safeParse('1234567').success).toBe(false)
		expect(passwordSchema.safeParse('12345678').success).toBe(true)
		expect(passwordSchema.safeParse('x'.repeat(129)).success).toBe(false)
	})

	test('invitations default to the member role', () => {
		expect(createInvitationSchema.parse({ email: 'a@example.com' }).role).toBe('member')
		expect(createInvitationSchema.safeParse({ email: 'a@example.com', role: 'god' }).success).toBe(false)
	})

	test('an upload checksum is the base64 MD5 of the file', () => {
		const checksum = createHash('md5').update('hello').digest('base64')
		expect(checksumSchema.parse(checksum)).toBe(checksum)
		expect(checksumSchema.safeParse(createHash('sha256').update('hello').digest('base64')).success).toBe(false)
		expect(
			directUploadRequestSchema.safeParse({ filename: 'a', byteSize: 0, checksum, contentType: 'text/plain' }).success,
		).toBe(false)
	})
})
