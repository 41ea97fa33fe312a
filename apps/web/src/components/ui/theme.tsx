import {
	createContext,
	type ReactNode,
	useCallback,
	useContext,
	useEffect,
	useLayoutEffect,
	useMemo,
	useState,
	useSyncExternalStore,
} from 'react'

export type Theme = 'light' | 'dark' | 'system'
export type ResolvedTheme = 'light' | 'dark'

export const THEME_STORAGE_KEY = 'blocksmith.theme'
const darkQuery = '(prefers-color-scheme: dark)'

type ThemeContextValue = {
	/** What the user chose. */
	theme: Theme
	/** What is showing: the choice, or the system's when the choice is 'system'. */
	resolvedTheme: ResolvedTheme
	setTheme: (theme: Theme) => void
}

const ThemeContext = createContext<ThemeContextValue | null>(null)

export function isTheme(value: unknown): value is Theme {
	return value === 'light' || value === 'dark' || value === 'system'
}

function readStoredTheme(): Theme | null {
	try {
		const value = window.localStorage.getItem(THEME_STORAGE_KEY)
		return isTheme(value) ? value : null
	} catch {
		// Storage can be blocked (privacy settings); the theme then lasts for the visit only.
		return null
	}
}

function storeTheme(theme: Theme): void {
	try {
		window.localStorage.setItem(THEME_STORAGE_KEY, theme)
	} catch {
		// As above: not remembered, still applied.
	}
}

function subscribeToSystemTheme(onChange: () => void): () => void {
	const query = window.matchMedia(darkQuery)
	query.addEventListener('change', onChange)
	return () => query.removeEventListener('change', onChange)
}

function readSystemTheme(): ResolvedTheme {
	return window.matchMedia(darkQuery).matches ? 'dark' : 'light'
}

function applyTheme(theme: ResolvedTheme): void {
	const root = document.documentElement
	root.classList.toggle('dark', theme === 'dark')
	root.style.colorScheme = theme
	// styles.css follows the system until this attribute exists (no white flash before the bundle runs).
	root.dataset.theme = theme
}

/**
 * Light, dark or the system's choice (followed live), remembered in localStorage and kept in step across
 * tabs. Puts the `dark` class and `color-scheme` on <html>; Tailwind's `dark:` variant keys off the class.
 */
export function ThemeProvider({
	children,
	defaultTheme = 'system',
	forcedTheme,
}: {
	children: ReactNode
	defaultTheme?: Theme
	/** Shown whatever was chosen: a published form whose author picked light or dark. */
	forcedTheme?: ResolvedTheme | undefined
}) {
	const [theme, setThemeState] = useState<Theme>(() => readStoredTheme() ?? defaultTheme)
	const systemTheme = useSyncExternalStore(subscribeToSystemTheme, readSystemTheme, () => 'light' as const)
	const resolvedTheme = forcedTheme ?? (theme === 'system' ? systemTheme : theme)

	// Before paint, so a theme change never shows a frame of the old colours.
	useLayoutEffect(() => applyTheme(resolvedTheme), [resolvedTheme])

	useEffect(() => {
		const onStorage = (event: StorageEvent) => {
			if (event.key === THEME_STORAGE_KEY) {
				setThemeState(isTheme(event.newValue) ? event.newValue : defaultTheme)
			}
		}
		window.addEventListener('storage', onStorage)
		return () => window.removeEventListener('storage', onStorage)
	}, [defaultTheme])

	const setTheme = useCallback((next: Theme) => {
		setThemeState(next)
		storeTheme(next)
	}, [])

	const value = useMemo(() => ({ theme, resolvedTheme, setTheme }), [theme, resolvedTheme, setTheme])
	return <ThemeContext value={value}>{children}</ThemeContext>
}

export function useTheme(): ThemeContextValue {
	const value = useContext(ThemeContext)
	if (!value) {
		throw new Error('useTheme() needs a <ThemeProvider> above it')
	}
	return value
}

/** For parts that also render outside the provider (the toaster): the theme showing, or 'system' without one. */
export function useResolvedThemeOrSystem(): ResolvedTheme | 'system' {
	return useContext(ThemeContext)?.resolvedTheme ?? 'system'
}
