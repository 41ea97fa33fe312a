import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { test } from 'node:test'
import type { Condition, FormEvaluation, LogicField, LogicRule } from '@blocksmith/contracts/form-rules.ts'
import { evaluateForm, nextPageId, visibleAnswers } from '@blocksmith/contracts/form-rules.ts'
import type { CalculationStep, FormCalculation } from '@blocksmith/contracts/forms.ts'
import { build } from 'esbuild'
import { useBrowser } from '../../fixtures.ts'

// The public form page works out the path and the calculated fields in the visitor's browser, and
// the server works them out again to check and store the answers (issue 19: "calculated fields give
// the same result in Node and in Chromium"). This bundles the rules module as the page gets it (with
// its own big.js), runs a few hundred generated forms in a blank Chromium page and here in Node, and
// asserts that every result is the same.

const browser = useBrowser()

type Case = { fields: LogicField[]; rules: LogicRule[]; answers: Record<string, unknown> }
type Outcome = { evaluation: FormEvaluation; kept: Record<string, unknown>; next: string[] }

/** A small seeded PRNG (mulberry32), so that a failing case can be replayed. */
function prng(seed: number): () => number {
	let state = seed
	return () => {
		state = (state + 0x6d2b79f5) | 0
		let t = Math.imul(state ^ (state >>> 15), 1 | state)
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

function generateCases(count: number): Case[] {
	const random = prng(19_0019)
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
	// Answers where floats and decimals part ways: 0.1, 19.99, 1.005, tiny and huge numbers.
	const numbers = [0, 1, 3, -2, 0.1, 0.2, 0.3, 19.99, 1.005, 2.5, -2.5, 1 / 3, 1e-7, 123456789.123, 1e21, 7, 10]
	const decimals = ['0', '1', '3', '0.1', '0.2', '19.99', '1.005', '2.5', '-2.5', '100', '0.000001', '999999999999']
	const operations: CalculationStep['operation'][] = ['add', 'subtract', 'multiply', 'divide', 'set']
	const cases: Case[] = []
	for (let run = 0; run < count; run++) {
		const fields: LogicField[] = []
		const length = 4 + Math.floor(random() * 8)
		for (let index = 0; index < length; index++) {
			const id = `f${index}`
			const earlierNumeric = fields.filter((field) => field.kind === 'number' || field.kind === 'calculated')
			const kind = pick(['number', 'number', 'calculated', 'calculated', 'page_break', 'short_text'] as const)
			if (kind === 'calculated') {
				const when = (): Condition[] =>
					earlierNumeric.length > 0 && random() < 0.4
						? [
								{
									fieldId: pick(earlierNumeric).id,
									operator: pick(['greater_than', 'less_than', 'is_empty'] as const),
									value: pick(numbers),
								},
							]
						: []
				const calculation: FormCalculation = {
					start: pick(decimals),
					steps: Array.from({ length: 1 + Math.floor(random() * 5) }, () => ({
						operation: pick(operations),
						operand:
							earlierNumeric.length > 0 && random() < 0.6
								? { fieldId: pick(earlierNumeric).id }
								: { value: pick(decimals) },
						when: when(),
					})),
					decimals: Math.floor(random() * 7),
					prefix: null,
					suffix: null,
				}
				fields.push({ id, kind, required: false, calculation })
			} else {
				fields.push({ id, kind, required: random() < 0.3 })
			}
		}
		const questions = fields.filter((field) => field.kind !== 'page_break')
		const pages = ['end', ...fields.filter((field) => field.kind === 'page_break').map((field) => field.id)]
		const condition = (): Condition => ({
			fieldId: questions.length > 0 ? pick(questions).id : 'gone',
			operator: pick(['greater_than', 'less_or_equal', 'is_empty', 'is_not_empty', 'is_not_empty', 'equals'] as const),
			value: pick(numbers),
		})
		const rules: LogicRule[] = Array.from({ length: Math.floor(random() * 5) }, (_, index) => {
			const action = pick(['show', 'hide', 'jump', 'jump'] as const)
			return {
				id: `r${index}`,
				match: pick(['all', 'any'] as const),
				conditions: [condition(), ...(random() < 0.3 ? [condition()] : [])],
				action,
				fieldIds: action === 'jump' ? [] : [pick(fields).id],
				...(action === 'jump' ? { toPageId: pick(pages) } : {}),
			}
		})
		const answers = Object.fromEntries(
			fields
				.filter(() => random() < 0.85)
				.map((field) => [field.id, field.kind === 'short_text' ? 'text' : pick(numbers)]),
		)
		cases.push({ fields, rules, answers })
	}
	return cases
}

/** The same work on both sides: the evaluation, the stored answers, and Next from every page. */
function runCase(
	rules: {
		evaluateForm: typeof evaluateForm
		visibleAnswers: typeof visibleAnswers
		nextPageId: typeof nextPageId
	},
	item: Case,
): Outcome {
	const evaluation = rules.evaluateForm(item.fields, item.rules, item.answers)
	const pageIds = ['start', ...item.fields.filter((field) => field.kind === 'page_break').map((field) => field.id)]
	return {
		evaluation,
		kept: rules.visibleAnswers(item.fields, item.rules, item.answers),
		next: pageIds.map((id) => rules.nextPageId(item.fields, item.rules, item.answers, id)),
	}
}

test('the rules module gives the same paths, visibility and calculated values in Chromium as in Node', async () => {
	const bundle = await build({
		entryPoints: [createRequire(import.meta.url).resolve('@blocksmith/contracts/form-rules.ts')],
		bundle: true,
		format: 'iife',
		globalName: 'formRules',
		platform: 'browser',
		target: 'es2022',
		write: false,
	})
	const script = bundle.outputFiles[0]?.text
	assert.ok(script, 'esbuild gave no bundle')
	// The module the page gets is zod-free: a schema library in it would mean forms.ts's values leaked in.
	assert.doesNotMatch(script, /\bZodError\b/)

	const cases = generateCases(400)
	const inNode = cases.map((item) => runCase({ evaluateForm, visibleAnswers, nextPageId }, item))
	const calculatedValues = inNode.flatMap((outcome) => Object.values(outcome.evaluation.calculated))
	// The cases must exercise what they check: values with decimals, jumps that skip, hidden fields.
	assert.ok(calculatedValues.filter((value) => value !== null && !Number.isInteger(value)).length > 100)
	assert.ok(
		inNode.filter((outcome) => Object.values(outcome.evaluation.fields).some((field) => field.skipped)).length > 20,
	)

	const page = await browser().newPage()
	try {
		await page.setContent('<!doctype html><title>rules</title>')
		await page.addScriptTag({ content: script })
		const inChromium = await page.evaluate(
			({ cases, runSource }) => {
				const run = new Function(`return (${runSource})`)() as (rules: unknown, item: unknown) => unknown
				return cases.map((item) => run((window as unknown as { formRules: unknown }).formRules, item))
			},
			{ cases, runSource: runCase.toString() },
		)
		// JSON on both sides: what crosses from the page is JSON-like already.
		const asJson = (outcomes: unknown[]) => outcomes.map((outcome) => JSON.stringify(outcome))
		const browserJson = asJson(inChromium)
		const nodeJson = asJson(inNode)
		const differing = nodeJson.flatMap((json, index) => (json === browserJson[index] ? [] : [index]))
		assert.deepEqual(
			differing,
			[],
			`different in Chromium: ${differing
				.slice(0, 3)
				.map((index) => `${JSON.stringify(cases[index])}\nNode: ${nodeJson[index]}\nChromium: ${browserJson[index]}`)
				.join('\n\n')}`,
		)
		assert.equal(inChromium.length, 400)
	} finally {
		await page.close()
	}
})
