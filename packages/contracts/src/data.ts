import { z } from 'zod'
import { organizationDeletionSchema } from './deletion.ts'

// Your data (issue 20, decision 040): an organization's export, its deletion, and deleting an
// account. Backups of the embedded database have no HTTP API: they are `npm run backup`.

// ---- export ---------------------------------------------------------------------------------

export const exportStatusSchema = z.enum(['queued', 'running', 'ready', 'failed', 'expired'])
export type ExportStatus = z.infer<typeof exportStatusSchema>

/** One export of everything an organization has, built by a job into one ZIP archive. */
export const organizationExportSchema = z.object({
	id: z.string(),
	status: exportStatusSchema,
	/** Steps done of the steps there are (one per part: databases, forms, charts, …); `step` is the one running. */
	progress: z.object({
		done: z.number().int().min(0),
		total: z.number().int().min(0),
		step: z.string().nullable(),
	}),
	requestedBy: z.object({ name: z.string(), email: z.string() }).nullable(),
	createdAt: z.iso.datetime(),
	finishedAt: z.iso.datetime().nullable(),
	/** When the download link stops working (set once ready). */
	expiresAt: z.iso.datetime().nullable(),
	byteSize: z.number().int().nullable(),
	/** Why it failed, in words for the owner. */
	error: z.string().nullable(),
	/** A signed link that works without signing in until `expiresAt`; null unless ready. */
	downloadUrl: z.string().nullable(),
})
export type OrganizationExport = z.infer<typeof organizationExportSchema>

export const organizationExportListSchema = z.object({ exports: z.array(organizationExportSchema) })
export type OrganizationExportList = z.infer<typeof organizationExportListSchema>

/** The archive's `manifest.json`: what it holds, by kind, so it can be checked against the database. */
export const exportManifestSchema = z.object({
	format: z.literal('blocksmith-export/1'),
	organization: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
	createdAt: z.iso.datetime(),
	/** Object ids by kind: `forms`, `submissions`, `charts`, `invoices`, … */
	objects: z.record(z.string(), z.array(z.string())),
	/** Every file in the archive besides the manifest, by path. */
	files: z.array(z.string()),
})
export type ExportManifest = z.infer<typeof exportManifestSchema>

// ---- deleting an organization -----------------------------------------------------------------

// The deletion itself is in deletion.ts (the organization's details carry it on every page).
export { type OrganizationDeletion, organizationDeletionSchema } from './deletion.ts'

/** Typing the organization's name confirms its deletion. */
export const deleteOrganizationSchema = z.object({ name: z.string().max(200) })
export type DeleteOrganization = z.infer<typeof deleteOrganizationSchema>

export const deleteOrganizationResultSchema = z.object({ deletion: organizationDeletionSchema })
export type DeleteOrganizationResult = z.infer<typeof deleteOrganizationResultSchema>

// ---- deleting an account ----------------------------------------------------------------------

const organizationRefSchema = z.object({ id: z.string(), name: z.string() })

/** What deleting the caller's account would do, shown before they confirm. */
export const accountDeletionPreviewSchema = z.object({
	/** Confirmed with the password; otherwise (Notion sign-in only) with a sign-in of the last minutes. */
	hasPassword: z.boolean(),
	/** Whether the session is fresh enough to confirm without a password. */
	isRecentSignIn: z.boolean(),
	/** Organizations where the caller is the only owner and others are members: transfer first. */
	blockedBy: z.array(organizationRefSchema),
	/** Organizations with no other member: deleted with the account. */
	deletesOrganizations: z.array(organizationRefSchema),
	/** Organizations the caller simply leaves. */
	leavesOrganizations: z.array(organizationRefSchema),
})
export type AccountDeletionPreview = z.infer<typeof accountDeletionPreviewSchema>

export const deleteAccountSchema = z.object({ password: z.string().max(128).optional() })
export type DeleteAccount = z.infer<typeof deleteAccountSchema>
