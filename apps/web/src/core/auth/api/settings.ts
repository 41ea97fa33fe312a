import { queryOptions } from '@tanstack/react-query'
import { api } from '#src/lib/api-client.ts'

export type ActiveSession = {
	id: string
	token: string
	createdAt: string
	updatedAt: string
	expiresAt: string
	ipAddress: string | null
	userAgent: string | null
}

export const sessionsQuery = queryOptions({
	queryKey: ['account', 'sessions'],
	queryFn: ({ signal }) => api<ActiveSession[]>('/api/auth/list-sessions', { signal }),
})

export async function updateProfile(input: { name: string }): Promise<void> {
	await api('/api/auth/update-user', { json: input })
}

export async function changePassword(input: { currentPassword: string; newPassword: string }): Promise<void> {
	await api('/api/auth/change-password', { json: { ...input, revokeOtherSessions: true }, isCredentialCheck: true })
}

export async function changeEmail(newEmail: string): Promise<void> {
	await api('/api/auth/change-email', { json: { newEmail, callbackURL: '/settings' } })
}

export async function revokeSession(token: string): Promise<void> {
	await api('/api/auth/revoke-session', { json: { token } })
}

/** Signs out every session of the account, this one included. */
export async function revokeAllSessions(): Promise<void> {
	await api('/api/auth/revoke-sessions', { json: {} })
}
