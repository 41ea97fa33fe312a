/** The bearer token lives in localStorage so every tab shares it; `storage` events tell the others. */
export const tokenStorageKey = 'blocksmith.token'

export function readToken(): string | null {
	try {
		return localStorage.getItem(tokenStorageKey)
	} catch {
		return null
	}
}

export function writeToken(token: string | null): void {
	try {
		if (token) {
			localStorage.setItem(tokenStorageKey, token)
		} else {
			localStorage.removeItem(tokenStorageKey)
		}
	} catch {
		// Private mode with storage disabled: the session lasts as long as the page.
	}
}
