// Light or dark for the public form page: the author's choice, or the visitor's system (followed
// live) when the form says auto. A few lines in place of the app's ThemeProvider, whose choice
// remembered per browser is the app user's, not a form visitor's (and the page has a budget of 100 KB).

const darkQuery = '(prefers-color-scheme: dark)'

function apply(theme: 'light' | 'dark'): void {
	const root = document.documentElement
	root.classList.toggle('dark', theme === 'dark')
	root.style.colorScheme = theme
	// styles.css follows the system until this attribute exists (no white flash before the bundle runs).
	root.dataset.theme = theme
}

export function applyPageTheme(mode: 'auto' | 'light' | 'dark'): void {
	if (mode !== 'auto') {
		apply(mode)
		return
	}
	const query = window.matchMedia(darkQuery)
	const follow = () => apply(query.matches ? 'dark' : 'light')
	query.addEventListener('change', follow)
	follow()
}
