import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { describe, expect, it } from 'vitest'
import { field } from '../../public/testing.ts'
import {
	collectAnswers,
	currentAnswers,
	type DraftValues,
	draftFromParam,
	hasAnswers,
	initialValues,
	restoreValues,
	textLimitOf,
} from './field-values.ts'

// The new kinds' values from start to answer: defaults, a draft saved and restored (as JSON, as
// the browser keeps it), links that prefill, and the answers the server expects (AnswerShapes).

const rating = field('rating', 'rating', 'Rating', { scale: { min: 1, max: 5, minLabel: null, maxLabel: null } })
const scale = field('scale', 'scale', 'Ease', { scale: { min: 0, max: 7, minLabel: 'Hard', maxLabel: 'Easy' } })
const nps = field('nps', 'nps', 'Recommend')
const ranking = field('ranking', 'ranking', 'Order', { options: ['Price', 'Speed', 'Support'] })
const matrix = field('matrix', 'matrix', 'Grid', {
	matrix: { rows: ['Food', 'Service'], columns: ['Bad', 'OK', 'Good'], multiple: false },
})
const multiMatrix = field('multi', 'matrix', 'Days', {
	matrix: { rows: ['Lunch', 'Dinner'], columns: ['Mon', 'Tue', 'Wed'], multiple: true },
})
const signature = field('sign', 'signature', 'Signature')
const calculated = field('total', 'calculated', 'Total')
const heading = field('h', 'heading', 'About you', { propertyId: null })
const paragraph = field('p', 'paragraph', 'Intro', { propertyId: null, body: 'Hello' })
const pageBreak = field('pb', 'page_break', 'Page 2', { propertyId: null })
const all: PublicField[] = [
	rating,
	scale,
	nps,
	ranking,
	matrix,
	multiMatrix,
	signature,
	calculated,
	heading,
	paragraph,
	pageBreak,
]

const roundTrip = (values: DraftValues) => restoreValues(all, JSON.parse(JSON.stringify(values)))

describe('field values of the new kinds', () => {
	it('gives content and calculated fields no value, and the rest their empty start', () => {
		expect(initialValues(all)).toEqual({
			rating: '',
			scale: '',
			nps: '',
			ranking: [],
			matrix: {},
			multi: {},
			sign: [],
		})
		expect(collectAnswers(all, initialValues(all))).toEqual({ answers: {}, errors: {} })
		expect(hasAnswers(all, initialValues(all))).toBe(false)
		// Nothing typed into a content item (or a calculated field) counts as an answer.
		expect(hasAnswers(all, { ...initialValues(all), h: 'x', total: '4' })).toBe(false)
	})

	it('sends what the server expects, and keeps it across a saved draft', () => {
		const values: DraftValues = {
			...initialValues(all),
			rating: '4',
			scale: '0',
			nps: '10',
			ranking: ['Support', 'Price', 'Speed'],
			matrix: { Food: 'Good', Service: 'OK' },
			multi: { Lunch: ['Wed', 'Mon'], Dinner: [] },
			sign: [{ blobId: 'b1', name: 'signature.png' }],
		}
		const expected = {
			rating: 4,
			scale: 0,
			nps: 10,
			ranking: ['Support', 'Price', 'Speed'],
			matrix: { Food: 'Good', Service: 'OK' },
			// Columns in the question's order; a row with nothing ticked is left out.
			multi: { Lunch: ['Mon', 'Wed'] },
			sign: [{ blobId: 'b1', name: 'signature.png' }],
		}
		expect(collectAnswers(all, values)).toEqual({ answers: expected, errors: {} })
		expect(collectAnswers(all, roundTrip(values))).toEqual({ answers: expected, errors: {} })
		expect(hasAnswers(all, values)).toBe(true)
	})

	it('drops saved values the form no longer fits (out of range, changed choices, removed rows)', () => {
		const restored = roundTrip({
			rating: '9',
			scale: '-1',
			nps: 'ten',
			ranking: ['Support', 'Price'],
			matrix: { Food: 'Great', Service: 'OK', Drinks: 'Good' },
			multi: { Lunch: 'Mon' },
			sign: [
				{ blobId: 'b1', name: 'a.png' },
				{ blobId: 'b2', name: 'b.png' },
			],
			h: 'x',
		} as unknown as DraftValues)
		expect(restored).toEqual({
			rating: '',
			scale: '',
			nps: '',
			ranking: [],
			matrix: { Service: 'OK' },
			multi: {},
			sign: [{ blobId: 'b1', name: 'a.png' }],
		})
	})

	it('checks required answers of each kind with a message that says what to do', () => {
		const required = all.map((item) => ({ ...item, required: true }))
		const { errors } = collectAnswers(required, { ...initialValues(required), matrix: { Food: 'OK' } })
		expect(errors).toEqual({
			rating: 'Choose a rating.',
			scale: 'Choose a number.',
			nps: 'Choose a number.',
			// Untouched, a ranking is unanswered even though its choices show in an order.
			ranking: 'Put the choices in order (or keep this order).',
			matrix: 'Answer every row (1 left).',
			multi: 'Answer every row.',
			sign: 'Sign here, or type your name instead.',
		})
	})

	it('prefills points from the link and nothing a link cannot say', () => {
		expect(draftFromParam(rating, '4')).toBe('4')
		expect(draftFromParam(rating, ' 5 ')).toBe('5')
		expect(draftFromParam(rating, '6')).toBeUndefined()
		expect(draftFromParam(rating, '0')).toBeUndefined()
		expect(draftFromParam(rating, '3.5')).toBeUndefined()
		expect(draftFromParam(nps, '0')).toBe('0')
		expect(draftFromParam(nps, '11')).toBeUndefined()
		expect(draftFromParam(scale, '7')).toBe('7')
		for (const item of [ranking, matrix, signature, calculated, heading, paragraph, pageBreak]) {
			expect(draftFromParam(item, 'Price'), item.kind).toBeUndefined()
		}
	})

	it('starts from a default that fits the field, and ignores one that does not', () => {
		const withDefaults = [
			{ ...rating, defaultValue: 3 },
			{ ...nps, defaultValue: 12 },
			{ ...ranking, defaultValue: ['Speed', 'Support', 'Price'] },
			{ ...matrix, defaultValue: { Food: 'OK', Service: 'Nope' } },
		]
		expect(initialValues(withDefaults)).toEqual({
			rating: '3',
			nps: '',
			ranking: ['Speed', 'Support', 'Price'],
			matrix: { Food: 'OK' },
		})
	})

	it('leaves calculated values to the page: never sent, never required', () => {
		const result = collectAnswers([{ ...calculated, required: true }], { total: '12' })
		expect(result).toEqual({ answers: {}, errors: {} })
		expect(currentAnswers([calculated], { total: '12' })).toEqual({})
	})
})

describe('text limits', () => {
	const short = field('name', 'short_text', 'Name')
	const capped = field('bio', 'long_text', 'Bio', { maxLength: 50 })

	it('takes the field limit, never past the kind', () => {
		expect(textLimitOf(short)).toBe(2000)
		expect(textLimitOf(field('l', 'long_text', 'L'))).toBe(20000)
		expect(textLimitOf(capped)).toBe(50)
		expect(textLimitOf({ kind: 'short_text', maxLength: 5000 })).toBe(2000)
		expect(textLimitOf(field('n', 'number', 'N'))).toBeUndefined()
	})

	it('refuses text over the limit with how much to take out, and never cuts it', () => {
		const long = 'x'.repeat(2013)
		expect(collectAnswers([short], { name: long })).toEqual({
			answers: {},
			errors: { name: 'Shorten this to 2,000 characters: it is 13 too long.' },
		})
		expect(collectAnswers([short], { name: 'x'.repeat(2000) }).answers.name).toHaveLength(2000)
		expect(collectAnswers([capped], { bio: 'y'.repeat(51) }).errors.bio).toBe(
			'Shorten this to 50 characters: it is 1 too long.',
		)
		// The logic still reads what was typed while it is too long.
		expect(currentAnswers([short], { name: long })).toEqual({ name: long })
	})
})
