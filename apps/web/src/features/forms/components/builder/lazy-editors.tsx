import { lazy } from 'react'

// What only some questions or visits need loads after the builder shows rather than with it: the
// Logic, Theme and Settings tabs, each kind's own settings (choices, stars and scales, a calculation, a relation's or
// people question's choice scope with its filter builder, file rules) and default values. The
// builder starts these downloads once it is on screen (preloadEditors), so a question opened or a
// problem revealed by Save normally finds them there; the label, help text and Required stay in
// field-settings.tsx and show at once.
const loadLogicEditor = () => import('../logic-editor.tsx')
const loadThemeSettings = () => import('../theme-settings.tsx')
const loadFormSettings = () => import('../form-settings.tsx')
const loadKindSettings = () => import('./kind-settings.tsx')
const loadCalculatedSettings = () => import('./calculated-settings.tsx')
const loadChoiceScopeSettings = () => import('./choice-scope-settings.tsx')
const loadFileRulesSettings = () => import('../file-rules-settings.tsx')
const loadDefaultValueInput = () => import('../default-value-input.tsx')

export const LogicEditor = lazy(() => loadLogicEditor().then((m) => ({ default: m.LogicEditor })))
export const ThemeSettings = lazy(() => loadThemeSettings().then((m) => ({ default: m.ThemeSettings })))
export const FormSettings = lazy(() => loadFormSettings().then((m) => ({ default: m.FormSettings })))
export const KindSettings = lazy(() => loadKindSettings().then((m) => ({ default: m.KindSettings })))
export const CalculatedSettings = lazy(() => loadCalculatedSettings().then((m) => ({ default: m.CalculatedSettings })))
export const ChoiceScopeSettings = lazy(() =>
	loadChoiceScopeSettings().then((m) => ({ default: m.ChoiceScopeSettings })),
)
export const FileRulesSettings = lazy(() => loadFileRulesSettings().then((m) => ({ default: m.FileRulesSettings })))
export const DefaultValueInput = lazy(() => loadDefaultValueInput().then((m) => ({ default: m.DefaultValueInput })))

export function preloadEditors(): void {
	for (const load of [
		loadLogicEditor,
		loadThemeSettings,
		loadFormSettings,
		loadKindSettings,
		loadCalculatedSettings,
		loadChoiceScopeSettings,
		loadFileRulesSettings,
		loadDefaultValueInput,
	]) {
		void load()
	}
}
