import { z } from 'zod'
import { emailSchema, idSchema, passwordSchema } from './common.ts'
import { organizationDeletionSchema } from './deletion.ts'
import { planIdSchema, subscriptionStateSchema } from './subscriptions.ts'

export const roleSchema = z.enum(['owner', 'admin', 'member'])
export type Role = z.infer<typeof roleSchema>

export const memberSchema = z.object({
	id: z.string(),
	userId: z.string(),
	name: z.string(),
	email: z.string(),
	image: z.string().nullable(),
	role: roleSchema,
	createdAt: z.iso.datetime(),
})
export type Member = z.infer<typeof memberSchema>

export const invitationSchema = z.object({
	id: z.string(),
	email: z.string(),
	role: roleSchema,
	status: z.enum(['pending', 'accepted', 'rejected', 'canceled']),
	expiresAt: z.iso.datetime(),
	inviterName: z.string().nullable(),
	createdAt: z.iso.datetime(),
})
export type Invitation = z.infer<typeof invitationSchema>

export const createInvitationSchema = z.object({
	email: emailSchema,
	role: roleSchema.default('member'),
})
export type CreateInvitation = z.infer<typeof createInvitationSchema>

export const removeMemberSchema = z.object({ memberId: idSchema })
export type RemoveMember = z.infer<typeof removeMemberSchema>

export const updateMemberRoleSchema = z.object({ memberId: idSchema, role: roleSchema })
export type UpdateMemberRole = z.infer<typeof updateMemberRoleSchema>

/** What the invitation page shows before the visitor signs in or signs up. */
export const invitationPreviewSchema = z.object({
	id: z.string(),
	email: z.string(),
	role: roleSchema,
	organizationName: z.string(),
	inviterName: z.string().nullable(),
	expiresAt: z.iso.datetime(),
	hasAccount: z.boolean(),
})
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>

export const orgDetailsSchema = z.object({
	id: z.string(),
	name: z.string(),
	slug: z.string(),
	role: roleSchema,
	membersCount: z.number().int(),
	plan: planIdSchema,
	planName: z.string(),
	subscriptionState: subscriptionStateSchema,
	/** Why members are sent to /paused: a pause they asked for, or a trial that ended. */
	pauseReason: z.enum(['requested', 'trial_ended']).nullable(),
	trialEndsAt: z.iso.datetime().nullable(),
	createdAt: z.iso.datetime(),
	/** Set while the organization is scheduled for deletion (restorable by an owner until `purgeAfter`). */
	deletion: organizationDeletionSchema.nullable(),
})
export type OrgDetails = z.infer<typeof orgDetailsSchema>

export const organizationSummarySchema = z.object({
	id: z.string(),
	name: z.string(),
	slug: z.string(),
	role: roleSchema,
	isActive: z.boolean(),
})
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>

export const createOrganizationSchema = z.object({ name: z.string().trim().min(1).max(100) })
export type CreateOrganization = z.infer<typeof createOrganizationSchema>

/** `token` is the one from the e-mailed link; it stands in for a confirmed address. */
export const acceptInvitationSchema = z.object({ token: z.string().max(200).optional() })
export type AcceptInvitation = z.infer<typeof acceptInvitationSchema>

/**
 * A newcomer's account, made from the invitation link: the address is the invited one (the
 * link's `token` proves it), and the account starts in the team, with no organization of its own.
 */
export const invitationSignUpSchema = z.object({
	token: z.string().min(1).max(200),
	name: z.string().trim().min(1).max(100),
	password: passwordSchema,
})
export type InvitationSignUp = z.infer<typeof invitationSignUpSchema>

/** The new session's bearer token. */
export const invitationSignUpResultSchema = z.object({ token: z.string(), organizationId: z.string() })
export type InvitationSignUpResult = z.infer<typeof invitationSignUpResultSchema>
