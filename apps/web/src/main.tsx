import '#src/lib/zod-config.ts'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { AppConfigContext } from '#src/app/app-config-context.tsx'
import { loginWithNext } from '#src/app/paths.ts'
import { createAppRouter } from '#src/app/router.tsx'
import { SessionGate } from '#src/app/session-gate.tsx'
import { ThemeProvider } from '#src/components/ui/theme.tsx'
import { setUnauthorizedHandler } from '#src/lib/api-client.ts'
import { readAppConfig } from '#src/lib/app-config.ts'
import { installErrorBeacon } from '#src/lib/error-beacon.ts'
import { createSessionStore } from '#src/lib/session.ts'
import { SessionProvider } from '#src/lib/session-context.tsx'
import '#src/styles.css'

installErrorBeacon()
const config = readAppConfig()
const session = createSessionStore({ refreshIntervalSeconds: config.sessionRefreshIntervalSeconds })
const router = createAppRouter()

// Any 401: the token is no longer good. Forget it (in every tab) and sign in again, coming
// back to this page afterwards.
setUnauthorizedHandler(() => {
	session.clear()
	if (!window.location.pathname.startsWith('/login')) {
		void router.navigate(loginWithNext(window.location), { replace: true })
	}
})

session.start()

const root = document.getElementById('root')
if (!root) {
	throw new Error('index.html has no #root element')
}

createRoot(root).render(
	<StrictMode>
		<AppConfigContext value={config}>
			<ThemeProvider>
				<SessionProvider store={session}>
					<SessionGate>
						<RouterProvider router={router} />
					</SessionGate>
				</SessionProvider>
			</ThemeProvider>
		</AppConfigContext>
	</StrictMode>,
)
