import type { ConfirmUserResult, User, ValidateTokenResponse } from '@blocksmith/contracts/auth.ts'
import { api, apiRequest } from '#src/lib/api-client.ts'

// Sign-up, sign-in and sign-out are better-auth's endpoints (/api/auth/*); the token comes
// back in the `set-auth-token` header. The user is then read the one way the app always
// reads it: GET /auth/validate_token.

async function withUser(token: string): Promise<{ token: string; user: User }> {
	const response = await fetch('/auth/validate_token', { headers: { authorization: `Bearer ${token}` } })
	const body = (await response.json()) as ValidateTokenResponse
	return { token, user: body.data }
}

function tokenFrom(headers: Headers): string {
	const token = headers.get('set-auth-token')
	if (!token) {
		throw new Error('The server did not return a session token.')
	}
	return token
}

export async function signIn(input: { email: string; password: string }) {
	const { headers } = await apiRequest('/api/auth/sign-in/email', { json: input, isCredentialCheck: true })
	return withUser(tokenFrom(headers))
}

export async function signUp(input: { name: string; email: string; password: string }) {
	const { headers } = await apiRequest('/api/auth/sign-up/email', { json: input, isCredentialCheck: true })
	return withUser(tokenFrom(headers))
}

/**
 * A newcomer's account from an invitation link: made with the invited address, already in the
 * team, with the address confirmed by the link's token (POST /api/invitations/{id}/sign_up).
 */
export async function signUpFromInvitation(
	invitation: { id: string; token: string },
	input: { name: string; password: string },
) {
	const { token } = await api<{ token: string }>(`/api/invitations/${encodeURIComponent(invitation.id)}/sign_up`, {
		json: { token: invitation.token, ...input },
	})
	return withUser(token)
}

export async function signOut(): Promise<void> {
	await api('/api/auth/sign-out', { json: {}, isCredentialCheck: true }).catch(() => {})
}

export async function requestPasswordReset(email: string): Promise<string> {
	const response = await api<{ message: string }>('/dashboard/users/forgot_password', { json: { email } })
	return response.message
}

export async function resetPassword(input: { token: string; password: string }): Promise<void> {
	await api('/auth/password', { method: 'PUT', json: input })
}

/** Confirms an address; a signup's confirmation (subscribed before having an account) also says where to go next. */
export async function confirmEmail(token: string): Promise<ConfirmUserResult> {
	return api<ConfirmUserResult>('/api/confirm_user', { json: { token } })
}

export async function resendConfirmation(): Promise<void> {
	await api('/dashboard/users/resend_confirmation', { json: {} })
}
