import { lazy, Suspense, useEffect } from 'react'
import { Outlet, useLocation, useNavigation } from 'react-router'
import { ProgressBar } from '#src/components/ui/progress-bar.tsx'
import { syncAnalyticsScript } from './analytics.ts'
import { useAppConfig } from './app-config-context.tsx'

// Toasts are never needed for the first paint: their code arrives just after it.
const Toaster = lazy(() => import('#src/components/ui/toaster.tsx').then((m) => ({ default: m.Toaster })))

/** Around every route: the top progress bar, the toasts, and the analytics rule. Kept small: every page loads it. */
export function RootLayout() {
	const navigation = useNavigation()
	const location = useLocation()
	const { analyticsScriptUrl } = useAppConfig()

	useEffect(() => {
		syncAnalyticsScript(analyticsScriptUrl, location.pathname)
	}, [analyticsScriptUrl, location.pathname])

	return (
		<>
			<ProgressBar isActive={navigation.state !== 'idle'} />
			<Outlet />
			<Suspense fallback={null}>
				<Toaster />
			</Suspense>
		</>
	)
}
