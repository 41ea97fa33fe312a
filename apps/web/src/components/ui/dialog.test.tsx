import { act, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { Button } from './button.tsx'
import { ConfirmDialog, Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from './dialog.tsx'
import { Input } from './input.tsx'

function RenameDialog() {
	return (
		<>
			<button type="button">Before</button>
			<Dialog>
				<DialogTrigger asChild>
					<Button>Rename</Button>
				</DialogTrigger>
				<DialogContent title="Rename form" description="The new name shows in your list of forms.">
					<Input aria-label="Name" />
					<DialogFooter>
						<DialogClose asChild>
							<Button variant="outline">Cancel</Button>
						</DialogClose>
						<Button>Save</Button>
					</DialogFooter>
				</DialogContent>
			</Dialog>
		</>
	)
}

describe('Dialog', () => {
	it('is named by its title, described by its description, and keeps the focus inside', async () => {
		const { user } = renderWithUser(<RenameDialog />)
		await user.click(screen.getByRole('button', { name: 'Rename' }))

		const dialog = screen.getByRole('dialog', { name: 'Rename form' })
		expect(dialog).toHaveAccessibleDescription('The new name shows in your list of forms.')
		expect(dialog).toContainElement(document.activeElement as HTMLElement)

		// Four stops (name, Cancel, Save, Close); tab twice around: the focus must cycle inside the dialog.
		const seen = new Set<Element | null>()
		for (let step = 0; step < 8; step += 1) {
			await user.tab()
			expect(dialog).toContainElement(document.activeElement as HTMLElement)
			seen.add(document.activeElement)
		}
		expect(seen.size).toBe(4)
		await user.tab({ shift: true })
		expect(dialog).toContainElement(document.activeElement as HTMLElement)

		// Focus sent outside by other means comes back, and the page behind is hidden from screen readers.
		const outside = screen.getByRole('button', { name: 'Before', hidden: true })
		act(() => outside.focus())
		expect(outside).not.toHaveFocus()
		expect(dialog).toContainElement(document.activeElement as HTMLElement)
		expect(screen.queryByRole('button', { name: 'Before' })).toBeNull()
	})

	it('closes on Escape and gives the focus back to its trigger', async () => {
		const { user } = renderWithUser(<RenameDialog />)
		const trigger = screen.getByRole('button', { name: 'Rename' })
		await user.click(trigger)
		expect(screen.getByRole('dialog')).toBeInTheDocument()

		await user.keyboard('{Escape}')
		await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
		expect(trigger).toHaveFocus()
	})

	it('closes from its close button', async () => {
		const { user } = renderWithUser(<RenameDialog />)
		await user.click(screen.getByRole('button', { name: 'Rename' }))
		await user.click(screen.getByRole('button', { name: 'Close' }))
		await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
	})
})

describe('ConfirmDialog', () => {
	function renderConfirm(onConfirm: () => unknown) {
		return renderWithUser(
			<ConfirmDialog
				title="Delete this form?"
				description="Its 12 submissions are deleted too."
				confirmLabel="Delete form"
				isDestructive
				onConfirm={onConfirm}
				trigger={<Button variant="destructive">Delete</Button>}
			/>,
		)
	}

	it('asks first, starts on Cancel, and runs onConfirm only when confirmed', async () => {
		const onConfirm = vi.fn()
		const { user } = renderConfirm(onConfirm)
		await user.click(screen.getByRole('button', { name: 'Delete' }))

		const dialog = screen.getByRole('alertdialog', { name: 'Delete this form?' })
		expect(dialog).toHaveAccessibleDescription('Its 12 submissions are deleted too.')
		expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus()
		expect(onConfirm).not.toHaveBeenCalled()

		await user.click(screen.getByRole('button', { name: 'Delete form' }))
		expect(onConfirm).toHaveBeenCalledOnce()
		await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
	})

	it('does not run onConfirm when cancelled', async () => {
		const onConfirm = vi.fn()
		const { user } = renderConfirm(onConfirm)
		await user.click(screen.getByRole('button', { name: 'Delete' }))
		await user.click(screen.getByRole('button', { name: 'Cancel' }))
		await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
		expect(onConfirm).not.toHaveBeenCalled()
	})

	it('shows progress while onConfirm is pending and stays open when it fails', async () => {
		let reject: (error: Error) => void = () => {}
		const onConfirm = vi.fn(
			() =>
				new Promise<void>((_resolve, rejectPromise) => {
					reject = rejectPromise
				}),
		)
		const { user } = renderConfirm(onConfirm)
		await user.click(screen.getByRole('button', { name: 'Delete' }))
		await user.click(screen.getByRole('button', { name: 'Delete form' }))

		const confirm = screen.getByRole('button', { name: 'Delete form' })
		expect(confirm).toHaveAttribute('aria-busy', 'true')
		expect(confirm).toBeDisabled()

		reject(new Error('Server said no'))
		await waitFor(() => expect(screen.getByRole('button', { name: 'Delete form' })).toBeEnabled())
		expect(screen.getByRole('alertdialog')).toBeInTheDocument()
	})
})
