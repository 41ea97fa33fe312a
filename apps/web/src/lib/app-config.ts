/**
 * Settings the server writes into index.html as a JSON data block (not a script: the CSP
 * forbids inline scripts, and data is all that is needed).
 */
export type AppConfig = {
	analyticsScriptUrl: string | null
	/** 0 means no polling: the session refreshes on focus and on changes from other tabs only. */
	sessionRefreshIntervalSeconds: number
	/** "Continue with Notion" is offered: the server has Notion's OAuth settings. */
	isNotionSignInEnabled: boolean
	/** Days an organization's deletion can be undone before it is purged (the server's DELETION_GRACE_DAYS). */
	deletionGraceDays: number
}

const defaults: AppConfig = {
	analyticsScriptUrl: null,
	sessionRefreshIntervalSeconds: 0,
	isNotionSignInEnabled: false,
	deletionGraceDays: 30,
}

export function readAppConfig(doc: Document = document): AppConfig {
	const element = doc.getElementById('blocksmith-config')
	if (!element?.textContent) {
		return defaults
	}
	try {
		const parsed = JSON.parse(element.textContent) as Partial<AppConfig>
		return {
			analyticsScriptUrl: typeof parsed.analyticsScriptUrl === 'string' ? parsed.analyticsScriptUrl : null,
			sessionRefreshIntervalSeconds:
				typeof parsed.sessionRefreshIntervalSeconds === 'number' ? parsed.sessionRefreshIntervalSeconds : 0,
			isNotionSignInEnabled: parsed.isNotionSignInEnabled === true,
			deletionGraceDays:
				typeof parsed.deletionGraceDays === 'number' && parsed.deletionGraceDays >= 0
					? parsed.deletionGraceDays
					: defaults.deletionGraceDays,
		}
	} catch {
		return defaults
	}
}
