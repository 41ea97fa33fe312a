import { createContext, useContext } from 'react'
import type { AppConfig } from '#src/lib/app-config.ts'

export const AppConfigContext = createContext<AppConfig>({
	analyticsScriptUrl: null,
	sessionRefreshIntervalSeconds: 0,
	isNotionSignInEnabled: false,
	deletionGraceDays: 30,
})

export function useAppConfig(): AppConfig {
	return useContext(AppConfigContext)
}
