import {
	type Invitation,
	type InvitationPreview,
	invitationPreviewSchema,
	invitationSchema,
	type Member,
	memberSchema,
	type OrganizationSummary,
	type OrgDetails,
	organizationSummarySchema,
	orgDetailsSchema,
	type Role,
} from '@blocksmith/contracts/teams.ts'
import { queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { api } from '#src/lib/api-client.ts'

export const teamKeys = {
	all: ['team'] as const,
	orgDetails: ['team', 'org-details'] as const,
	organizations: ['team', 'organizations'] as const,
	members: ['team', 'members'] as const,
	invitations: ['team', 'invitations'] as const,
}

export const orgDetailsQuery = queryOptions({
	queryKey: teamKeys.orgDetails,
	queryFn: ({ signal }): Promise<OrgDetails> =>
		api('/dashboard/users/get_org_details', { schema: orgDetailsSchema, signal }),
})

export const organizationsQuery = queryOptions({
	queryKey: teamKeys.organizations,
	queryFn: ({ signal }): Promise<OrganizationSummary[]> =>
		api('/dashboard/organizations', { schema: z.array(organizationSummarySchema), signal }),
})

export const membersQuery = queryOptions({
	queryKey: teamKeys.members,
	queryFn: ({ signal }): Promise<Member[]> =>
		api('/dashboard/team_invites/all_members', { schema: z.array(memberSchema), signal }),
})

export const invitationsQuery = queryOptions({
	queryKey: teamKeys.invitations,
	queryFn: ({ signal }): Promise<Invitation[]> =>
		api('/dashboard/team_invites', { schema: z.array(invitationSchema), signal }),
})

export function invitationPreviewQuery(id: string) {
	return queryOptions({
		queryKey: ['invitation', id],
		queryFn: ({ signal }): Promise<InvitationPreview> =>
			api(`/api/invitations/${encodeURIComponent(id)}`, { schema: invitationPreviewSchema, signal }),
		retry: false,
		// A used link is explained by the page itself, not a toast as well.
		meta: { isErrorShownInPage: true },
	})
}

export async function inviteMember(input: { email: string; role: Role }): Promise<Invitation> {
	return api('/dashboard/team_invites', { json: input, schema: invitationSchema })
}

export async function revokeInvitation(id: string): Promise<void> {
	await api(`/dashboard/team_invites/${encodeURIComponent(id)}`, { method: 'DELETE' })
}

export async function removeMember(memberId: string): Promise<void> {
	await api('/dashboard/team_invites/remove_team_member', { json: { memberId } })
}

export async function updateMemberRole(input: { memberId: string; role: Role }): Promise<void> {
	await api('/dashboard/team_invites/update_member_role', { json: input })
}

export async function leaveOrganization(): Promise<void> {
	await api('/dashboard/organizations/leave', { json: {} })
}

export async function createOrganization(name: string): Promise<OrganizationSummary> {
	return api('/dashboard/organizations', { json: { name }, schema: organizationSummarySchema })
}

export async function switchOrganization(id: string): Promise<void> {
	await api(`/dashboard/organizations/${encodeURIComponent(id)}/switch`, { json: {} })
}

export async function renameOrganization(input: { organizationId: string; name: string }): Promise<void> {
	await api('/api/auth/organization/update', {
		json: { organizationId: input.organizationId, data: { name: input.name } },
	})
}

export async function acceptInvitation(id: string, token: string | null): Promise<{ organizationId: string }> {
	return api(`/dashboard/invitations/${encodeURIComponent(id)}/accept`, { json: token ? { token } : {} })
}
