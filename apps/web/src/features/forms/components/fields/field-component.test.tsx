import { questionKinds } from '@blocksmith/contracts/form-kinds.ts'
import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { field } from '../../public/testing.ts'
import { calculatedValue, formatCalculated } from './calculated-field.tsx'
import { ContentBlock, fieldComponent } from './field-component.tsx'
import type { FieldProps } from './field-frame.tsx'

// The registry gives every question kind a component and content none; content blocks show
// text, pictures and dividers; a calculated field shows the page's result, read-only.

function props(item: PublicField, value: FieldProps['value'] = ''): FieldProps {
	return { field: item, value, onChange: () => {}, error: undefined, controlId: `c-${item.id}` }
}

describe('fieldComponent', () => {
	it('asks every question kind, with the question named', async () => {
		for (const kind of questionKinds) {
			const item = field(kind, kind, `Question ${kind}`, {
				options: ['A', 'B'],
				matrix: { rows: ['R1'], columns: ['C1', 'C2'], multiple: false },
			})
			const node = fieldComponent(item, props(item, kind === 'matrix' ? {} : ''), undefined)
			expect(node, kind).not.toBeNull()
			const { unmount } = render(<>{node}</>)
			expect(await screen.findByText(`Question ${kind}`), kind).toBeInTheDocument()
			unmount()
		}
	})

	it('asks nothing of content', () => {
		for (const kind of ['heading', 'paragraph', 'image', 'divider', 'page_break'] as const) {
			expect(fieldComponent(field(kind, kind, 'x'), props(field(kind, kind, 'x')), undefined), kind).toBeNull()
		}
	})
})

describe('ContentBlock', () => {
	it('shows a heading, a paragraph with bold and safe links, an image with its label as alternative text, a divider', () => {
		const { container } = render(
			<>
				<ContentBlock field={field('h', 'heading', 'About your project', { propertyId: null })} />
				<ContentBlock
					field={field('p', 'paragraph', 'Intro', {
						propertyId: null,
						body: 'Read **carefully**.\nSee [the terms](https://example.com/terms) or [this](javascript:alert(1)).',
					})}
				/>
				<ContentBlock
					field={field('i', 'image', 'Our office at night', {
						propertyId: null,
						imageUrl: 'https://cdn.example/a.png',
					})}
				/>
				<ContentBlock field={field('d', 'divider', 'Divider', { propertyId: null })} />
				<ContentBlock field={field('b', 'page_break', 'Page two', { propertyId: null })} />
			</>,
		)
		expect(screen.getByRole('heading', { level: 2, name: 'About your project' })).toBeInTheDocument()
		expect(screen.getByText('carefully').tagName).toBe('STRONG')
		expect(screen.getByRole('link', { name: 'the terms' })).toHaveAttribute('href', 'https://example.com/terms')
		expect(screen.getAllByRole('link')).toHaveLength(1)
		// The paragraph's label names it in the builder only.
		expect(screen.queryByText('Intro')).not.toBeInTheDocument()
		expect(screen.getByRole('img', { name: 'Our office at night' })).toHaveAttribute('src', 'https://cdn.example/a.png')
		expect(screen.getByRole('separator')).toBeInTheDocument()
		// A page break is the page flow's business: nothing where it stands.
		expect(screen.queryByText('Page two')).not.toBeInTheDocument()
		expect(container.querySelectorAll('script')).toHaveLength(0)
	})

	it('shows nothing for an image without a picture or a paragraph without text', () => {
		const { container } = render(
			<>
				<ContentBlock field={field('i', 'image', 'Missing', { propertyId: null, imageUrl: null })} />
				<ContentBlock field={field('p', 'paragraph', 'Empty', { propertyId: null, body: null })} />
			</>,
		)
		expect(container).toBeEmptyDOMElement()
	})

	it('can sit under a level-2 title as level 3', () => {
		render(<ContentBlock field={field('h', 'heading', 'Details', { propertyId: null })} headingLevel={3} />)
		expect(screen.getByRole('heading', { level: 3, name: 'Details' })).toBeInTheDocument()
	})
})

describe('CalculatedField', () => {
	const total = field('t', 'calculated', 'Your quote', {
		calculation: { start: '0', steps: [], decimals: 2, prefix: '€', suffix: null },
	})

	it('shows the page’s result with its decimals, prefix and suffix, read-only and announced', () => {
		const { rerender } = render(<>{fieldComponent(total, props(total, calculatedValue(1234.5)), undefined)}</>)
		const output = screen.getByRole('status', { name: 'Your quote' })
		expect(output).toHaveTextContent('€1,234.50')
		expect(output).toHaveAttribute('aria-live', 'polite')
		expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
		rerender(<>{fieldComponent(total, props(total, calculatedValue(null)), undefined)}</>)
		expect(screen.getByRole('status')).toHaveTextContent('Not worked out yet')
	})

	it('formats a score with a suffix, and is hidden with the field', () => {
		const score = { ...total, calculation: { start: '0', steps: [], decimals: 0, prefix: null, suffix: ' pts' } }
		expect(formatCalculated(score, '42')).toBe('42 pts')
		expect(formatCalculated(score, '')).toBeNull()
		const hidden = { ...score, hidden: true }
		const { container } = render(<>{fieldComponent(hidden, props(hidden, '42'), undefined)}</>)
		expect(container).toBeEmptyDOMElement()
	})
})
