import type { User, ValidateTokenResponse } from '@blocksmith/contracts/auth.ts'
import { apiRequest } from '#src/lib/api-client.ts'

// "Continue with Notion" (decision 020). better-auth sends the browser to Notion and back; the
// server then hands this app a one-minute, single-use token in the URL's fragment, which is
// traded here for the bearer token, the same `set-auth-token` a password sign-in returns.

/** Notion's consent page for this browser; after it the browser comes back to `next`. */
export async function startNotionSignIn(next: string): Promise<string> {
	const query = next === '/' ? '' : `?${new URLSearchParams({ next })}`
	const { data } = await apiRequest<{ url: string }>('/api/auth/sign-in/social', {
		json: {
			provider: 'notion',
			callbackURL: `/auth/notion/finish${query}`,
			errorCallbackURL: '/login',
			disableRedirect: true,
		},
		isCredentialCheck: true,
	})
	return data.url
}

export async function finishNotionSignIn(oneTimeToken: string): Promise<{ token: string; user: User }> {
	const { headers } = await apiRequest('/api/auth/one-time-token/verify', {
		json: { token: oneTimeToken },
		isCredentialCheck: true,
	})
	const token = headers.get('set-auth-token')
	if (!token) {
		throw new Error('The server did not return a session token.')
	}
	const response = await fetch('/auth/validate_token', { headers: { authorization: `Bearer ${token}` } })
	const body = (await response.json()) as ValidateTokenResponse
	return { token, user: body.data }
}

/** What a failed Notion sign-in (the `error` better-auth puts on /login) means to the person. */
export function notionSignInErrorMessage(code: string): string {
	switch (code) {
		case 'access_denied':
			return 'Notion access was not granted, so you are not signed in. Continue with Notion again, or use your e-mail.'
		case 'account_not_linked':
			return 'An account with your Notion e-mail address exists but is not confirmed yet. Sign in with its password (or confirm it from the e-mail we sent), then Continue with Notion.'
		case 'email_not_found':
			return 'Notion did not share your e-mail address, which your account needs. Try again, or sign up with your e-mail.'
		case 'invalid_code':
		case 'unable_to_get_user_info':
			return 'Notion did not confirm the sign-in; it may be unavailable. Try again in a moment.'
		case 'state_mismatch':
		case 'state_not_found':
		case 'invalid_callback_request':
		case 'session_not_found':
			return 'This Notion sign-in expired or was started in another browser. Continue with Notion again.'
		default:
			return 'Signing in with Notion did not work. Try again, or use your e-mail.'
	}
}
