// The unlock token lasts as long as the tab (sessionStorage): a reload stays unlocked until it
// expires, a new visit asks again.
const unlockKeyPrefix = 'blocksmith.form-unlock.'

export function readUnlock(formId: string): string | null {
	try {
		const saved = JSON.parse(window.sessionStorage.getItem(unlockKeyPrefix + formId) ?? 'null') as {
			token?: unknown
			expiresAt?: unknown
		} | null
		if (
			typeof saved?.token === 'string' &&
			typeof saved.expiresAt === 'string' &&
			Date.parse(saved.expiresAt) > Date.now()
		) {
			return saved.token
		}
	} catch {
		// Storage blocked or damaged: the password is asked again.
	}
	return null
}

export function writeUnlock(formId: string, unlock: { token: string; expiresAt: string } | null): void {
	try {
		if (unlock) {
			window.sessionStorage.setItem(unlockKeyPrefix + formId, JSON.stringify(unlock))
		} else {
			window.sessionStorage.removeItem(unlockKeyPrefix + formId)
		}
	} catch {
		// As above.
	}
}
