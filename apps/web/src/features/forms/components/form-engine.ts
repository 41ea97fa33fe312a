import type { FormEvaluation, LogicField, LogicRule, PageOfForm } from '@blocksmith/contracts/form-rules.ts'
import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { useEffect, useState } from 'react'

// The rules engine (contracts/form-rules.ts, with exact decimals for calculations) is only needed
// by forms with rules, pages or calculated fields, and is about a third of the page's own code:
// those forms load it apart (the public page has a budget of 100 KB). A form with none of them
// has one page, every question visible and nothing to work out: the plain engine below says so.

type Rules = typeof import('@blocksmith/contracts/form-rules.ts')
export type Engine = Pick<Rules, 'evaluateForm' | 'nextPageId' | 'formPages' | 'visibleAnswers'>

const startPage = 'start'

/** The engine's answers for a form without rules, page breaks or calculated fields. */
const plainEngine: Engine = {
	evaluateForm: (fields: LogicField[]): FormEvaluation => ({
		fields: Object.fromEntries(
			fields.map((field) => [field.id, { visible: true, required: field.required, skipped: false }]),
		),
		path: [startPage],
		calculated: {},
	}),
	nextPageId: () => 'end',
	formPages: (fields): PageOfForm[] => [{ id: startPage, index: 0, fieldIds: fields.map((field) => field.id) }],
	visibleAnswers: (fields: LogicField[], _rules: LogicRule[], answers: Record<string, unknown>) =>
		Object.fromEntries(
			fields
				.filter((field) => field.kind !== 'calculated' && Object.hasOwn(answers, field.id))
				.map((field) => [field.id, answers[field.id]]),
		),
}

/** Whether the form needs the rules engine: rules to follow, pages to move through, or sums to work out. */
export function needsEngine(fields: readonly PublicField[], rules: readonly LogicRule[]): boolean {
	return rules.length > 0 || fields.some((field) => field.kind === 'page_break' || field.kind === 'calculated')
}

let loaded: Engine | null = null
let loading: Promise<Engine> | null = null

/** Loads the engine once; later calls get the same promise (or module). */
function loadEngine(): Promise<Engine> {
	loading ??= import('@blocksmith/contracts/form-rules.ts').then(
		(module) => {
			loaded = module
			return module
		},
		(error: unknown) => {
			// A lost connection: the next call tries again.
			loading = null
			throw error
		},
	)
	return loading
}

/**
 * The engine for a form: the plain one when it needs none, the loaded one once it has arrived,
 * null meanwhile; `failed` when it could not be loaded (the form offers to try again).
 */
export function useEngine(isNeeded: boolean): { engine: Engine | null; failed: boolean; retry: () => void } {
	const [, setArrived] = useState(0)
	const [failed, setFailed] = useState(false)
	const [attempt, setAttempt] = useState(0)
	// biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt loads again after a failure
	useEffect(() => {
		if (!isNeeded || loaded) {
			return
		}
		let isCurrent = true
		loadEngine().then(
			() => isCurrent && setArrived((count) => count + 1),
			() => isCurrent && setFailed(true),
		)
		return () => {
			isCurrent = false
		}
	}, [isNeeded, attempt])
	return {
		engine: isNeeded ? loaded : plainEngine,
		failed,
		retry: () => {
			setFailed(false)
			setAttempt((count) => count + 1)
		},
	}
}
