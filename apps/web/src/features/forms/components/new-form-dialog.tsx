import { Plus } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'

// The chooser brings the gallery and the seven templates' questions: loaded when it shows ("New
// form" opened, or a forms page without any form yet), not with every visit to the list.
const Chooser = lazy(() => import('./new-form-chooser.tsx').then((m) => ({ default: m.NewFormChooser })))

/** The "New form" button: the gallery in a dialog. */
export function NewFormDialog({ variant = 'primary' }: { variant?: 'primary' | 'outline' }) {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant={variant}>
					<Plus aria-hidden /> New form
				</Button>
			</DialogTrigger>
			<DialogContent
				title="New form"
				description="Start from scratch or from a template. Each answer becomes a row of the database it writes into."
				size="xl"
			>
				<NewFormChooser isActive={isOpen} />
			</DialogContent>
		</Dialog>
	)
}

/** Where the answers go and the gallery (new-form-chooser.tsx), with skeletons while it loads. */
export function NewFormChooser({ isActive = true }: { isActive?: boolean }) {
	return (
		<Suspense
			fallback={
				<SkeletonGroup label="Loading the templates…" className="grid gap-5">
					<Skeleton className="h-28 w-full" />
					<Skeleton className="h-64 w-full" />
				</SkeletonGroup>
			}
		>
			<Chooser isActive={isActive} />
		</Suspense>
	)
}
