import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import PostalMime from 'postal-mime'
import type { TestApp } from './test-app.ts'

// Portal mails as the mail job wrote them: every sign-in link sent to an address, so a test can
// tell the link mailed last from the ones before it.

/** The portal sign-in links in every mail to `to` so far. */
export async function portalLinksTo(t: TestApp, to: string): Promise<string[]> {
	const mailDir = path.join(t.dataDir, 'mail')
	let files: string[] = []
	try {
		files = readdirSync(mailDir).filter((file) => file.endsWith('.eml'))
	} catch {
		return []
	}
	const links: string[] = []
	for (const file of files) {
		const email = await PostalMime.parse(readFileSync(path.join(mailDir, file)))
		if (email.to?.some((address) => address.address === to)) {
			links.push(...((email.text ?? '').match(/https?:\/\/\S+sign-in\?token=\S+/g) ?? []))
		}
	}
	return links
}

/** Waits until `to` has been mailed a link not in `known`, and returns it. */
export async function newPortalLink(t: TestApp, to: string, known: string[] = [], timeoutMs = 15_000): Promise<string> {
	const deadline = Date.now() + timeoutMs
	while (Date.now() < deadline) {
		const fresh = (await portalLinksTo(t, to)).find((link) => !known.includes(link))
		if (fresh) {
			return fresh
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	throw new Error(`no new portal link mailed to ${to} within ${timeoutMs} ms`)
}

/** The token of a sign-in link. */
export function tokenOf(link: string): string {
	return new URL(link).searchParams.get('token') ?? ''
}
