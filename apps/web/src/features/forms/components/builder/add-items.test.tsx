import { unboundQuestionKinds } from '@blocksmith/contracts/form-kinds.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { kindLabels } from '../../lib/draft.ts'
import { makeField, makeForm } from '../../testing.tsx'
import { builderServer, itemNames, renderBuilder, saveAndGetPatch, setText, waitForBuilder } from './testing.tsx'

async function addFromMenu(user: { click: (element: Element) => Promise<void> }, item: string): Promise<void> {
	await user.click(screen.getByRole('button', { name: 'Add' }))
	await user.click(await screen.findByRole('menuitem', { name: item }))
}

describe('the builder’s Add menu', () => {
	test('adds each content item, unbound, with page breaks as separators, and saves them in order', async () => {
		const server = builderServer()
		const { user } = renderBuilder()
		await waitForBuilder()
		for (const item of ['Heading', 'Text', 'Divider', 'Page break', 'Image']) {
			await addFromMenu(user, item)
		}
		expect(itemNames()).toEqual([
			'Name',
			'Email',
			'Stage',
			'New section',
			'Text',
			'Divider',
			'Page 2 — Next page',
			'Image',
		])
		// The image item is open (the last added): a link and its alternative text.
		await user.type(screen.getByRole('textbox', { name: 'Image link' }), 'https://example.com/team.png')
		await user.click(screen.getByRole('button', { name: /Use link ?for image/ }))
		setText(screen.getByRole('textbox', { name: 'Alternative text' }), 'Our team')
		// The heading's text is its label.
		await user.click(screen.getByRole('button', { name: 'Edit New section' }))
		setText(screen.getByRole('textbox', { name: 'Heading text' }), 'About you')
		// A page break names the page it opens.
		await user.click(screen.getByRole('button', { name: 'Edit Page 2 — Next page' }))
		setText(screen.getByRole('textbox', { name: 'Title of the next page' }), 'Details')
		expect(screen.getByRole('button', { name: 'Edit Page 2 — Details' })).toBeInTheDocument()

		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.slice(3)).toMatchObject([
			{ kind: 'heading', label: 'About you', propertyId: null },
			{ kind: 'paragraph', label: 'Text', propertyId: null },
			{ kind: 'divider', propertyId: null },
			{ kind: 'page_break', label: 'Details', propertyId: null },
			{ kind: 'image', label: 'Our team', propertyId: null, image: { url: 'https://example.com/team.png' } },
		])
	}, 20_000)

	test('a paragraph’s text takes **bold** and links, previewed beside it', async () => {
		const server = builderServer()
		const { user } = renderBuilder()
		await waitForBuilder()
		await addFromMenu(user, 'Text')
		const body = screen.getByRole('textbox', { name: 'Text' })
		expect(body).toHaveAccessibleDescription(/\*\*bold\*\* and \[links\]\(https:\/\/…\) work/)
		setText(body, 'Read **the terms** at [our site](https://example.com/terms).')
		const preview = screen.getByText('Preview', { selector: 'figcaption' }).closest('figure') as HTMLElement
		expect(within(preview).getByText('the terms').tagName).toBe('STRONG')
		expect(within(preview).getByRole('link', { name: 'our site' })).toHaveAttribute('href', 'https://example.com/terms')
		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.[3]).toMatchObject({
			kind: 'paragraph',
			body: 'Read **the terms** at [our site](https://example.com/terms).',
		})
	})

	test('on Notion, every new question kind is kept with the answers, and says so', async () => {
		const server = builderServer(makeForm({ tool: 'notion' }))
		const { user } = renderBuilder()
		await waitForBuilder()
		for (const kind of unboundQuestionKinds) {
			await addFromMenu(user, kindLabels[kind])
		}
		const list = screen.getByRole('list', { name: 'Fields' })
		expect(within(list).getAllByText('Not in the database')).toHaveLength(unboundQuestionKinds.length)
		expect(within(list).getAllByText(/Kept with the answers, not written to Notion/)).toHaveLength(
			unboundQuestionKinds.length,
		)
		// No property was asked for: Notion's schema is the owner's.
		expect(server.databasePatches).toHaveLength(0)
		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.slice(3).map((field) => [field.kind, field.propertyId])).toEqual(
			unboundQuestionKinds.map((kind) => [kind, null]),
		)
		// Each kind arrives with what it needs to be asked.
		const byKind = Object.fromEntries((patch.fields ?? []).map((field) => [field.kind, field]))
		expect(byKind.rating?.scale).toMatchObject({ min: 1, max: 5 })
		expect(byKind.ranking?.choices).toEqual(['Option 1', 'Option 2', 'Option 3'])
		expect(byKind.select?.choices).toHaveLength(3)
		expect(byKind.matrix?.matrix).toMatchObject({ rows: ['Row 1', 'Row 2'], multiple: false })
		expect(byKind.calculated?.calculation).toMatchObject({ start: '0', steps: [] })
	}, 30_000)

	test('on a built-in database, a new question makes its property, named by the label, and is bound to it', async () => {
		const server = builderServer()
		const { user } = renderBuilder()
		await waitForBuilder()
		await addFromMenu(user, 'Rating')
		const dialog = await screen.findByRole('dialog', { name: 'New question: Rating' })
		expect(within(dialog).getByRole('radio', { name: /Into a new property of Leads ?\(Number\)/ })).toBeChecked()
		setText(within(dialog).getByRole('textbox', { name: 'Question' }), 'How was the visit?')
		await user.click(within(dialog).getByRole('button', { name: 'Add question' }))
		await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
		expect(server.databasePatches).toHaveLength(1)
		const properties = server.databasePatches[0]?.properties ?? []
		// The whole list, ids kept, with the new property at its end.
		expect(properties.slice(0, 2)).toMatchObject([
			{ id: 'name', name: 'Name', type: 'title' },
			{ id: 'email', name: 'Email', type: 'email' },
		])
		expect(properties.at(-1)).toEqual({ name: 'How was the visit?', type: 'number' })
		expect(itemNames().at(-1)).toBe('How was the visit?')
		expect(screen.getByRole('textbox', { name: 'Label' })).toHaveValue('How was the visit?')
		expect(screen.getByText('How was the visit?', { selector: 'span.font-medium' })).toBeInTheDocument()

		// A choice question kept with the answers only: no property.
		await addFromMenu(user, 'Single choice')
		const second = await screen.findByRole('dialog', { name: 'New question: Single choice' })
		await user.click(within(second).getByRole('radio', { name: /Keep answers with the submission only/ }))
		await user.click(within(second).getByRole('button', { name: 'Add question' }))
		await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
		expect(server.databasePatches).toHaveLength(1)

		const patch = await saveAndGetPatch(server, user)
		const [rating, choice] = patch.fields?.slice(3) ?? []
		expect(rating).toMatchObject({
			kind: 'rating',
			label: 'How was the visit?',
			propertyId: `new${properties.length - 1}`,
		})
		expect(choice).toMatchObject({ kind: 'select', propertyId: null, choices: ['Option 1', 'Option 2', 'Option 3'] })
	}, 20_000)

	test('a new select on a built-in database brings its choices as the property’s options', async () => {
		const server = builderServer()
		const { user } = renderBuilder()
		await waitForBuilder()
		await addFromMenu(user, 'Multiple choice')
		const dialog = await screen.findByRole('dialog', { name: 'New question: Multiple choice' })
		await user.click(within(dialog).getByRole('button', { name: 'Add question' }))
		await waitFor(() => expect(server.databasePatches).toHaveLength(1))
		expect(server.databasePatches[0]?.properties?.at(-1)).toEqual({
			name: 'Multiple choice',
			type: 'multi_select',
			options: [{ name: 'Option 1' }, { name: 'Option 2' }, { name: 'Option 3' }],
		})
		const patch = await saveAndGetPatch(server, user)
		// Bound, the choices are the property's options.
		expect(patch.fields?.at(-1)).toMatchObject({ kind: 'multi_select', choices: null })
	})
})

describe('the list of items', () => {
	test('content and page breaks move like questions; pages are numbered by where the breaks are', async () => {
		const [nameField, email, stage] = makeForm().fields
		const server = builderServer(
			makeForm({
				fields: [
					...[nameField, email].filter((field) => field !== undefined),
					makeField({ id: 'pb', kind: 'page_break', label: 'Details' }),
					makeField({ id: 'h', kind: 'heading', label: 'About you' }),
					...[stage].filter((field) => field !== undefined),
					makeField({ id: 'pb2', kind: 'page_break', label: 'Last' }),
				],
			}),
		)
		const { user } = renderBuilder()
		await waitForBuilder()
		expect(itemNames()).toEqual(['Name', 'Email', 'Page 2 — Details', 'About you', 'Stage', 'Page 3 — Last'])
		await user.click(screen.getByRole('button', { name: 'Move Page 2 — Details up' }))
		await user.click(screen.getByRole('button', { name: 'Move Page 3 — Last up' }))
		expect(itemNames()).toEqual(['Name', 'Page 2 — Details', 'Email', 'About you', 'Page 3 — Last', 'Stage'])
		const patch = await saveAndGetPatch(server, user)
		expect(patch.fields?.map((field) => field.id)).toEqual(['fa', 'pb', 'fb', 'h', 'pb2', 'fc'])
	})
})
