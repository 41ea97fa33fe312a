import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import PostalMime, { type Address } from 'postal-mime'

export type Mail = {
	file: string
	to: string[]
	subject: string
	text: string
	html: string
	/** Every http(s) link in the text body, in order: confirmation, reset and invitation links. */
	links: string[]
}

function addressesOf(addresses: Address[] | undefined): string[] {
	return (addresses ?? []).flatMap((address) =>
		address.group ? address.group.map((member) => member.address) : [address.address],
	)
}

/** Every mail the server has written to `<dataDir>/mail` so far (no SMTP_URL), oldest first. */
async function readMails(dataDir: string): Promise<Mail[]> {
	const mailDir = path.join(dataDir, 'mail')
	let names: string[]
	try {
		names = await readdir(mailDir)
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return []
		}
		throw error
	}
	// File names start with an ISO timestamp, so name order is sending order.
	const files = names.filter((name) => name.endsWith('.eml')).sort()
	return Promise.all(
		files.map(async (name) => {
			const file = path.join(mailDir, name)
			const email = await PostalMime.parse(await readFile(file))
			const text = email.text ?? ''
			return {
				file,
				to: addressesOf(email.to),
				subject: email.subject ?? '',
				text,
				html: email.html ?? '',
				links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
			}
		}),
	)
}

/**
 * Waits for the first mail to `to` that matches; mail is sent by a background job, so it
 * appears a moment after the request that caused it. Polls instead of sleeping a fixed time.
 */
export async function waitForMail(
	dataDir: string,
	to: string,
	matches: (mail: Mail) => boolean = () => true,
	timeoutMs = 30_000,
): Promise<Mail> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		const found = (await readMails(dataDir)).find(
			(mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase()) && matches(mail),
		)
		if (found) {
			return found
		}
		if (Date.now() > deadline) {
			throw new Error(`no matching mail to ${to} within ${timeoutMs} ms`)
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
}
