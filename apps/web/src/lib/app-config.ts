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
}

const defaults: AppConfig = { analyticsScriptUrl: null, sessionRefreshIntervalSeconds: 0, isNotionSignInEnabled: false }

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
		}
	} catch {
		return defaults
	}
}
