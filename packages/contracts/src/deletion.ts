import { z } from 'zod'

// Its own file, apart from data.ts: the organization's details (teams.ts) carry it, so every
// dashboard page loads it, and zod's schemas are kept by the bundler whether used or not. In
// data.ts the export and account schemas would ride along with it on every page.

/** An organization's scheduled deletion: restorable by an owner until `purgeAfter`. */
export const organizationDeletionSchema = z.object({
	requestedAt: z.iso.datetime(),
	purgeAfter: z.iso.datetime(),
	requestedBy: z.string().nullable(),
})
export type OrganizationDeletion = z.infer<typeof organizationDeletionSchema>
