import type { AnswerFile } from '@blocksmith/contracts/form-files.ts'
import { screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { field, makeForm } from '../../public/testing.ts'
import { FormView } from '../form-view.tsx'
import type { UploadFile } from './field-frame.tsx'
import { FilesField } from './files-field.tsx'

// The file-upload field: its limits checked before anything is sent, each upload's progress
// and failure, and the answer holding only files that were uploaded.

const megabyte = 1024 * 1024

function fileOf(name: string, type: string, size = 10): File {
	const file = new File(['x'.repeat(Math.min(size, 64))], name, { type })
	Object.defineProperty(file, 'size', { value: size })
	return file
}

/** A field with its value kept, as the form keeps it. */
function Harness(props: { rules: { maxFiles: number; maxFileBytes: number; accept: string[] }; upload: UploadFile }) {
	const [value, setValue] = useState<AnswerFile[]>([])
	return (
		<>
			<FilesField
				field={field('docs', 'files', 'Documents', { fileRules: props.rules })}
				value={value}
				onChange={(next) => setValue(next as AnswerFile[])}
				error={undefined}
				controlId="docs"
				upload={props.upload}
			/>
			<output data-testid="value">{JSON.stringify(value)}</output>
		</>
	)
}

describe('FilesField', () => {
	it('uploads what fits the limits, refuses the rest with the reason, and removes a file', async () => {
		const upload = vi.fn<UploadFile>(async (file) => ({ blobId: `b-${file.name}`, name: file.name }))
		const { user } = renderWithUser(
			<Harness rules={{ maxFiles: 2, maxFileBytes: 2 * megabyte, accept: ['.pdf', 'image/*'] }} upload={upload} />,
			// As a drop does: the file picker's own filter (accept) is not the check.
			{ user: { applyAccept: false } },
		)
		expect(screen.getByText(/Up to 2 files, 2 MB each\. Accepted: \.pdf, image\/\*\./)).toBeInTheDocument()
		const input = screen.getByLabelText('Choose files')
		await user.upload(input, [
			fileOf('brief.pdf', 'application/pdf'),
			fileOf('huge.png', 'image/png', 3 * megabyte),
			fileOf('notes.txt', 'text/plain'),
		])
		await waitFor(() => expect(screen.getByTestId('value')).toHaveTextContent('b-brief.pdf'))
		expect(upload).toHaveBeenCalledTimes(1)
		expect(screen.getByText('Larger than 2 MB.')).toBeInTheDocument()
		expect(screen.getByText('Not a file type this field takes (.pdf, image/*).')).toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Dismiss huge.png' }))
		await user.upload(input, [fileOf('photo.jpg', 'image/jpeg'), fileOf('third.pdf', 'application/pdf')])
		await waitFor(() => expect(screen.getByTestId('value')).toHaveTextContent('b-photo.jpg'))
		expect(screen.getByText('Only 2 files can be added.')).toBeInTheDocument()
		expect(screen.getByLabelText('Choose files')).toBeDisabled()

		await user.click(screen.getByRole('button', { name: 'Remove brief.pdf' }))
		expect(JSON.parse(screen.getByTestId('value').textContent ?? '[]')).toEqual([
			{ blobId: 'b-photo.jpg', name: 'photo.jpg' },
		])
		expect(screen.getByLabelText('Choose files')).toBeEnabled()
	})

	it("shows an upload's progress, and the server's reason when it fails", async () => {
		let finish: (() => void) | undefined
		const upload = vi.fn<UploadFile>(
			(file, onProgress) =>
				new Promise((resolve, reject) => {
					onProgress(0.4)
					finish = () =>
						file.name === 'bad.pdf'
							? reject(Object.assign(new Error('refused'), { detail: 'Files of type x are not accepted.' }))
							: resolve({ blobId: 'b1', name: file.name })
				}),
		)
		const { user } = renderWithUser(
			<Harness rules={{ maxFiles: 1, maxFileBytes: megabyte, accept: [] }} upload={upload} />,
		)
		await user.upload(screen.getByLabelText('Choose a file'), fileOf('bad.pdf', 'application/pdf'))
		const progress = await screen.findByRole('progressbar', { name: 'Uploading bad.pdf' })
		expect((progress as HTMLProgressElement).value).toBe(0.4)
		finish?.()
		expect(await screen.findByText('Files of type x are not accepted.')).toBeInTheDocument()
		expect(screen.getByTestId('value')).toHaveTextContent('[]')
	})
})

describe('a file field in the form', () => {
	it('is required like any field, and the preview lists a chosen file without sending it', async () => {
		const fetchSpy = vi.spyOn(globalThis, 'fetch')
		const form = makeForm([field('cv', 'files', 'Your CV', { required: true })])
		const { user } = renderWithUser(<FormView form={form} mode="preview" />)
		await user.click(await screen.findByRole('button', { name: 'Send' }))
		expect(await screen.findAllByText('Add a file.')).not.toHaveLength(0)
		await user.upload(await screen.findByLabelText('Choose a file'), fileOf('cv.pdf', 'application/pdf'))
		expect(await screen.findByText('cv.pdf')).toBeInTheDocument()
		await user.click(screen.getByRole('button', { name: 'Send' }))
		expect(await screen.findByText('Preview: nothing was sent.')).toBeInTheDocument()
		expect(fetchSpy).not.toHaveBeenCalled()
		fetchSpy.mockRestore()
	})
})
