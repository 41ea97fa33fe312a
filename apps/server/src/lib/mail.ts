import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { JobQueue, Jobs } from './jobs.ts'
import type { Logger } from './logger.ts'
import type { Storage } from './storage.ts'

/**
 * A file attached to a message, read from the storage when the job delivers it: the job's
 * payload (a database row) stays a few hundred bytes whatever the file's size (decision 036).
 */
type MailAttachment = { filename: string; contentType: string; storageKey: string }

export type MailMessage = {
	to: string | string[]
	cc?: string[]
	subject: string
	text: string
	html?: string
	replyTo?: string
	attachments?: MailAttachment[]
}

export type Mailer = {
	/** Queues the message; a job delivers it and retries on failure. */
	send: (message: MailMessage) => Promise<void>
}

/**
 * Mail goes out through SMTP when SMTP_URL is set. Otherwise each message is written as an
 * .eml file under DATA_DIR/mail and its links are logged, so the embedded default needs no
 * mail server and a developer can click through sign-up and reset flows.
 */
export function createMailer(options: {
	smtpUrl: string | undefined
	from: string
	mailDir: string
	log: Logger
	jobs: Jobs
	/** Where attachments are read from. */
	storage?: Pick<Storage, 'get'>
	/** First retry delay; doubled each time. */
	retryDelaySeconds?: number
}): Mailer {
	const { log } = options
	// nodemailer (about a hundred modules) loads with the first mail, not with the server.
	const createTransport = () =>
		import('nodemailer').then(({ default: nodemailer }) =>
			options.smtpUrl
				? nodemailer.createTransport(options.smtpUrl)
				: nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
		)
	let transport: ReturnType<typeof createTransport> | undefined

	async function deliver(message: MailMessage): Promise<void> {
		transport ??= createTransport()
		const { attachments, ...rest } = message
		const files = attachments?.length ? await Promise.all(attachments.map(readAttachment)) : undefined
		const info = await (await transport).sendMail({
			from: options.from,
			...rest,
			...(files ? { attachments: files } : {}),
		})
		if (options.smtpUrl) {
			log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent')
			return
		}
		await mkdir(options.mailDir, { recursive: true })
		const file = path.join(options.mailDir, `${new Date().toISOString().replaceAll(':', '-')}-${randomUUID()}.eml`)
		await writeFile(file, (info as unknown as { message: Buffer }).message)
		const links = message.text.match(/https?:\/\/\S+/g) ?? []
		log.info({ to: message.to, subject: message.subject, file, links }, 'mail written')
	}

	async function readAttachment(attachment: MailAttachment) {
		const file = await options.storage?.get(attachment.storageKey)
		if (!file) {
			// Thrown, so the job retries: a storage that is briefly unreachable must not send the mail without its file.
			throw new Error(`mail attachment ${attachment.storageKey} not found`)
		}
		const content = Buffer.from(await new Response(file.body).arrayBuffer())
		return { filename: attachment.filename, contentType: attachment.contentType, content }
	}

	const queue: JobQueue<MailMessage> = {
		name: 'mail-send',
		// A dozen tries over about an hour and a half survives an SMTP server's restart.
		options: {
			retryLimit: 12,
			retryDelay: options.retryDelaySeconds ?? 5,
			retryBackoff: true,
			retryDelayMax: 1800,
			expireInSeconds: 120,
		},
		handle: deliver,
	}

	options.jobs.register(queue)
	return {
		send: async (message) => {
			await options.jobs.send(queue, message)
		},
	}
}
