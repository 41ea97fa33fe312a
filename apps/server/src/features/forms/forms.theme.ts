import { formRootClass, readableTextOn } from '@blocksmith/contracts/form-theme.ts'
import { type FormTheme, formThemeSchema, type PageImage, type PublicTheme } from '@blocksmith/contracts/forms.ts'
import { AppError } from '#src/lib/errors.ts'
import { scopeCss } from '#src/lib/scoped-css.ts'
import type { FormsDeps } from './forms.deps.ts'
import { resolvePageImage } from './forms.head.ts'

// A form's theme: checked when it is saved (custom CSS above all), and turned into what the
// public page applies. The CSS is confined to the form's root element (lib/scoped-css.ts).

const rootSelector = `.${formRootClass}`

/** Confined CSS by source, so a busy page does not parse it on every view. */
const scopedCache = new Map<string, string>()
const scopedCacheLimit = 200

/** The custom CSS as the page uses it, or null without any. Saved CSS always passed the check. */
export function themeCss(theme: FormTheme): string | null {
	const source = theme.customCss?.trim()
	if (!source) {
		return null
	}
	let css = scopedCache.get(source)
	if (css === undefined) {
		css = scopeCss(source, rootSelector).css
		if (scopedCache.size >= scopedCacheLimit) {
			scopedCache.delete(scopedCache.keys().next().value as string)
		}
		scopedCache.set(source, css)
	}
	return css || null
}

export function themeOf(raw: unknown): FormTheme {
	return formThemeSchema.parse(raw ?? {})
}

/** Refuses custom CSS that would reach outside the form or load anything, naming each problem's line. */
export function checkThemeCss(theme: FormTheme): void {
	if (!theme.customCss?.trim()) {
		return
	}
	const { problems } = scopeCss(theme.customCss, rootSelector)
	if (problems.length > 0) {
		throw new AppError('VALIDATION_FAILED', {
			detail: problems[0],
			errors: [{ field: 'theme.customCss', message: problems.join(' ') }],
		})
	}
}

/** The images of a theme, each checked as page images are. */
export function themeImages(theme: FormTheme): { key: 'logo' | 'cover'; image: PageImage | null }[] {
	return [
		{ key: 'logo', image: theme.logo },
		{ key: 'cover', image: theme.cover },
	]
}

export async function publicTheme(
	deps: FormsDeps,
	form: { id: string; organizationId: string; theme: unknown },
): Promise<PublicTheme> {
	const theme = themeOf(form.theme)
	const [logo, cover] = await Promise.all([
		resolvePageImage(deps, form, theme.logo, 'logo'),
		resolvePageImage(deps, form, theme.cover, 'cover'),
	])
	return {
		mode: theme.mode,
		accentColor: theme.accentColor,
		accentForeground: theme.accentColor ? readableTextOn(theme.accentColor) : null,
		backgroundColor: theme.backgroundColor,
		font: theme.font,
		corners: theme.corners,
		logo,
		cover,
		css: themeCss(theme),
		showBranding: !theme.removeBranding,
	}
}
