import { act, screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { field } from '../../public/testing.ts'
import type { UploadFile } from './field-frame.tsx'
import { FieldHarness, shownValue } from './field-testing.tsx'
import { SignatureField } from './signature-field.tsx'

// The signature: strokes (signature_pad, stood in for here: jsdom has no canvas drawing) or a
// typed name become one PNG uploaded like a file, once the visitor pauses; the form waits while
// it is sent; keyboard users sign by typing.

const { pads } = vi.hoisted(() => ({ pads: [] as EventTarget[] }))
vi.mock('signature_pad', () => ({
	default: class extends EventTarget {
		constructor() {
			super()
			pads.push(this)
		}
		clear() {}
		on() {}
		off() {}
		toData() {
			return []
		}
		fromData() {}
	},
}))

const written: string[] = []

beforeEach(() => {
	pads.length = 0
	written.length = 0
	const context = new Proxy(
		{
			measureText: (text: string) => ({ width: text.length * 10 }),
			fillText: (text: string) => written.push(text),
		},
		{ get: (target, key) => (key in target ? target[key as keyof typeof target] : () => {}) },
	)
	vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => context as never)
	vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) =>
		callback(new Blob(['png-bytes'], { type: 'image/png' })),
	)
})

const signature = field('s', 'signature', 'Sign here')
const value = () => shownValue(screen.getByTestId('value'))
const stroke = () => act(() => void pads[0]?.dispatchEvent(new Event('endStroke')))

describe('SignatureField', () => {
	it('uploads the drawing as one PNG once the strokes pause, the form waiting meanwhile', async () => {
		const upload = vi.fn<UploadFile>(async (file) => ({ blobId: 'blob-1', name: file.name }))
		const busy: boolean[] = []
		renderWithUser(
			<FieldHarness
				field={signature}
				component={SignatureField}
				initial={[]}
				upload={upload}
				onBusyChange={(isBusy) => busy.push(isBusy)}
			/>,
		)
		expect(screen.getByRole('img', { name: /Signature pad/ })).toBeInTheDocument()
		stroke()
		stroke()
		expect(busy.at(-1)).toBe(true)
		await waitFor(() => expect(value()).toEqual([{ blobId: 'blob-1', name: 'signature.png' }]))
		// Two strokes in a row: sent once.
		expect(upload).toHaveBeenCalledTimes(1)
		const file = upload.mock.calls[0]?.[0] as File
		expect(file.type).toBe('image/png')
		expect(busy.at(-1)).toBe(false)
		expect(screen.getByText('Signature saved.')).toBeInTheDocument()
	})

	it('signs by keyboard alone: a typed name written onto the canvas and uploaded, then cleared', async () => {
		const upload = vi.fn<UploadFile>(async (file) => ({ blobId: 'typed', name: file.name }))
		const { user } = renderWithUser(
			<>
				<button type="button">before</button>
				<FieldHarness field={signature} component={SignatureField} initial={[]} upload={upload} />
			</>,
		)
		await user.click(screen.getByRole('button', { name: 'before' }))
		await user.tab()
		expect(screen.getByRole('button', { name: 'Type your name instead' })).toHaveFocus()
		await user.keyboard('{Enter}')
		expect(screen.getByRole('textbox', { name: 'Your full name' })).toHaveFocus()
		await user.keyboard('Ada Lovelace')
		expect(written.at(-1)).toBe('Ada Lovelace')
		await waitFor(() => expect(value()).toEqual([{ blobId: 'typed', name: 'signature.png' }]))
		expect(upload).toHaveBeenCalledTimes(1)
		await user.click(screen.getByRole('button', { name: 'Clear signature' }))
		expect(value()).toEqual([])
		expect(screen.getByRole('textbox', { name: 'Your full name' })).toHaveValue('')
		await user.click(screen.getByRole('button', { name: 'Draw instead' }))
		expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
	})

	it('says when the upload failed and sends again on Try again', async () => {
		const upload = vi
			.fn<UploadFile>()
			.mockRejectedValueOnce(new Error('offline'))
			.mockResolvedValueOnce({ blobId: 'second', name: 'signature.png' })
		const { user } = renderWithUser(
			<FieldHarness field={signature} component={SignatureField} initial={[]} upload={upload} />,
		)
		stroke()
		expect(await screen.findByText("Your signature couldn't be saved.")).toBeInTheDocument()
		expect(value()).toEqual([])
		await user.click(screen.getByRole('button', { name: 'Try again' }))
		await waitFor(() => expect(value()).toEqual([{ blobId: 'second', name: 'signature.png' }]))
	})

	it('sends nothing when cleared while the PNG is being made', async () => {
		let finishPng: (() => void) | null = null
		vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) => {
			finishPng = () => callback(new Blob(['png'], { type: 'image/png' }))
		})
		const upload = vi.fn<UploadFile>(async (file) => ({ blobId: 'late', name: file.name }))
		const { user } = renderWithUser(
			<FieldHarness field={signature} component={SignatureField} initial={[]} upload={upload} />,
		)
		stroke()
		await waitFor(() => expect(finishPng).not.toBeNull())
		await user.click(screen.getByRole('button', { name: 'Clear signature' }))
		await act(async () => finishPng?.())
		expect(upload).not.toHaveBeenCalled()
		expect(value()).toEqual([])
	})

	it('draws at the screen’s density up to three pixels a point, so a zoomed-in page still sends a PNG the server takes', () => {
		vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(600)
		const canvasOf = () => screen.getByRole('img', { name: /Signature pad/ }) as HTMLCanvasElement
		vi.stubGlobal('devicePixelRatio', 2)
		const sharp = renderWithUser(<FieldHarness field={signature} component={SignatureField} initial={[]} />)
		expect([canvasOf().width, canvasOf().height]).toEqual([1200, 320])
		sharp.unmount()
		// 500 % zoom on a dense screen: capped, 1800 × 480 rather than 6000 × 1600.
		vi.stubGlobal('devicePixelRatio', 10)
		renderWithUser(<FieldHarness field={signature} component={SignatureField} initial={[]} />)
		expect([canvasOf().width, canvasOf().height]).toEqual([1800, 480])
	})

	it('keeps a signature from an earlier visit until cleared', async () => {
		const { user } = renderWithUser(
			<FieldHarness
				field={signature}
				component={SignatureField}
				initial={[{ blobId: 'old', name: 'signature.png' }]}
			/>,
		)
		expect(screen.getByText('Signed earlier. Clear to sign again.')).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Clear signature' }))
		expect(value()).toEqual([])
		expect(screen.queryByText('Signed earlier. Clear to sign again.')).not.toBeInTheDocument()
	})
})
