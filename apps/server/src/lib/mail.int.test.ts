import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'

// A real SMTP server on loopback that refuses the first delivery and accepts the next, the
// way a mail server does while it restarts: the mail job must retry and the mail arrive once.

type Received = { to: string[]; body: string }
const received: Received[] = []
let attempts = 0
let server: SMTPServer
let t: TestApp

beforeAll(async () => {
	server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		// No network here: a reverse DNS lookup per connection would only wait for a timeout.
		disableReverseLookup: true,
		onData(stream, session, callback) {
			let body = ''
			stream.on('data', (chunk: Buffer) => {
				body += chunk.toString()
			})
			stream.on('end', () => {
				attempts += 1
				if (attempts === 1) {
					const error = Object.assign(new Error('Try again later'), { responseCode: 451 })
					callback(error)
					return
				}
				received.push({ to: session.envelope.rcptTo.map((r) => r.address), body })
				callback()
			})
		},
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.server.address() as AddressInfo
	t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Blocksmith <team@example.com>' })
})

afterAll(async () => {
	await t.close()
	await new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('mail over SMTP', () => {
	test('a refused delivery is retried by the job and the mail arrives once', async () => {
		const account = await t.signUp()
		const deadline = Date.now() + 45_000
		while (received.length === 0 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 200))
		}
		expect(attempts).toBeGreaterThanOrEqual(2)
		expect(received).toHaveLength(1)
		expect(received[0]?.to).toEqual([account.email])
		expect(received[0]?.body).toContain('Subject: Confirm your e-mail address')
		expect(received[0]?.body).toContain('From: Blocksmith <team@example.com>')
	})
})
