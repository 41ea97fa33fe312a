// The export's jobs: building the archive (every part in turn, one progress step each, into one
// ZIP in storage, then the mail with its link), and the hourly pass that expires old archives.

import { and, eq, inArray, isNotNull, lt, lte } from 'drizzle-orm'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
import type { MailMessage } from '#src/lib/mail.ts'
import { createZipArchive, removeLeftovers, type ZipArchive } from './exports.archive.ts'
import type { ExportsDeps } from './exports.deps.ts'
import { organizationExports } from './exports.schema.ts'
import { downloadUrl } from './exports.service.ts'

const dayMs = 86_400_000
/**
 * An export still queued or running after this long was left by a process that died mid-build
 * (pg-boss's single retry then failed too): it is marked failed, so it no longer blocks a new one.
 */
const stuckAfterMs = 6 * 3_600_000

export function createExportQueues(deps: () => ExportsDeps): ExportsDeps['queues'] {
	return {
		build: {
			name: 'organization-export',
			// A failure is caught and stored on the export; a retry only covers a process that died
			// mid-build. A large organization's build may take long: pg-boss's 15 minutes would retry it while it runs.
			options: { retryLimit: 1, retryDelay: 60, expireInSeconds: 4 * 3600 },
			handle: ({ exportId }) => buildExport(deps(), exportId),
		},
		expire: {
			name: 'organization-export-expiry',
			options: { retryLimit: 0 },
			cron: '41 * * * *',
			handle: () => expireExports(deps()),
		},
	}
}

/** Builds one export, start to end. Never throws for a failing part: the export is marked failed. */
async function buildExport(deps: ExportsDeps, exportId: string): Promise<void> {
	const { db, log } = deps
	const [row] = await db
		.select({ record: organizationExports, organization: organizations })
		.from(organizationExports)
		.innerJoin(organizations, eq(organizations.id, organizationExports.organizationId))
		.where(eq(organizationExports.id, exportId))
	// Gone with its organization, or finished already (a job delivered twice).
	if (!row || (row.record.status !== 'queued' && row.record.status !== 'running')) {
		return
	}
	const { record, organization } = row
	const contributors = [...deps.contributors]
	const total = contributors.length
	const setProgress = (done: number, step: string | null) =>
		db.update(organizationExports).set({ progress: { done, total, step } }).where(eq(organizationExports.id, exportId))
	const startedAt = deps.now()
	await db
		.update(organizationExports)
		.set({ status: 'running', startedAt, error: null })
		.where(eq(organizationExports.id, exportId))

	let step = 'Preparing the archive'
	let archive: ZipArchive | null = null
	try {
		await removeLeftovers(deps.tempDir, exportId)
		archive = await createZipArchive({ tempDir: deps.tempDir, exportId, storage: deps.storage })
		for (const [index, contributor] of contributors.entries()) {
			step = contributor.label
			await setProgress(index, step)
			await contributor.run({
				db,
				storage: deps.storage,
				log: log.child({ exportId, step }),
				organizationId: organization.id,
				archive,
			})
		}
		step = 'Storing the archive'
		const storageKey = `exports/${organization.id}/${exportId}`
		const { byteSize } = await archive.store(
			{
				organization: { id: organization.id, name: organization.name, slug: organization.slug },
				createdAt: startedAt.toISOString(),
			},
			storageKey,
		)
		const finishedAt = deps.now()
		const expiresAt = new Date(finishedAt.getTime() + deps.linkDays * dayMs)
		await db
			.update(organizationExports)
			.set({
				status: 'ready',
				storageKey,
				byteSize,
				finishedAt,
				expiresAt,
				progress: { done: total, total, step: null },
			})
			.where(eq(organizationExports.id, exportId))
		await sendReadyMail(deps, record.requestedBy, organization.name, exportId, expiresAt)
	} catch (error) {
		log.error({ err: error, exportId, organizationId: organization.id, step }, 'export failed')
		await archive?.discard()
		await db
			.update(organizationExports)
			.set({
				status: 'failed',
				finishedAt: deps.now(),
				error: `The export stopped at “${step}” and nothing was kept. Start a new export to try again; if it stops again, contact support.`,
			})
			.where(eq(organizationExports.id, exportId))
	}
}

function exportReadyMail(
	to: string,
	name: string,
	organizationName: string,
	url: string,
	expiresAt: Date,
): MailMessage {
	const until = `${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`
	return {
		to,
		subject: `Your export of ${organizationName} is ready`,
		text: `Hello ${name},\n\nThe export of ${organizationName} you started on Blocksmith is ready: one ZIP file with its databases, forms and answers, charts, time, invoices, portals and members.\n\nDownload it here (no sign-in needed):\n\n${url}\n\nThe link works until ${until}. Anyone with it can download the file, so do not forward this message. After that, start a new export in Settings.\n`,
	}
}

/** To the member who asked, when they still have an account; a failed mail leaves the export ready. */
async function sendReadyMail(
	deps: ExportsDeps,
	requestedBy: string | null,
	organizationName: string,
	exportId: string,
	expiresAt: Date,
): Promise<void> {
	if (!requestedBy) {
		return
	}
	const [user] = await deps.db
		.select({ name: users.name, email: users.email })
		.from(users)
		.where(eq(users.id, requestedBy))
	if (!user) {
		return
	}
	const url = downloadUrl(deps, exportId, expiresAt)
	await deps.mailer
		.send(exportReadyMail(user.email, user.name, organizationName, url, expiresAt))
		.catch((error: unknown) => deps.log.error({ err: error, exportId }, 'export mail not queued'))
}

/** Deletes the archives whose links have expired, a page at a time, and fails exports left stuck. */
async function expireExports(deps: ExportsDeps): Promise<void> {
	const { db } = deps
	const now = deps.now()
	const pageSize = 100
	for (;;) {
		const due = await db
			.select({ id: organizationExports.id, storageKey: organizationExports.storageKey })
			.from(organizationExports)
			.where(and(isNotNull(organizationExports.storageKey), lte(organizationExports.expiresAt, now)))
			.limit(pageSize)
		for (const { id, storageKey } of due) {
			if (storageKey) {
				await deps.storage.delete(storageKey)
			}
			await db
				.update(organizationExports)
				.set({ status: 'expired', storageKey: null })
				.where(eq(organizationExports.id, id))
		}
		if (due.length < pageSize) {
			break
		}
	}
	await db
		.update(organizationExports)
		.set({
			status: 'failed',
			finishedAt: now,
			error: 'The export did not finish. Start a new export to try again.',
		})
		.where(
			and(
				inArray(organizationExports.status, ['queued', 'running']),
				lt(organizationExports.createdAt, new Date(now.getTime() - stuckAfterMs)),
			),
		)
}
