import { FileQuestion } from 'lucide-react'
import { Brand } from '#src/app/brand.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'

/**
 * The public page of a published form. Forms themselves arrive with the forms module; until
 * then every id reads as a form that is not (or no longer) published.
 */
export function PublicFormPage() {
	return (
		<div className="flex min-h-dvh flex-col items-center justify-center gap-8 bg-muted/40 px-4 py-10">
			<main className="w-full max-w-lg">
				<EmptyState
					icon={FileQuestion}
					headingLevel={2}
					title="This form isn't available"
					description="It may have been unpublished or the link may be wrong. Check the link with whoever shared it."
					className="bg-card"
				/>
			</main>
			<footer className="text-muted-foreground text-xs">
				<a href="/" className="inline-flex items-center gap-1 hover:underline">
					Made with <Brand className="text-xs" />
				</a>
			</footer>
		</div>
	)
}
