import { Button } from '#src/components/ui/button.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { useAsyncAction } from '#src/lib/use-async-action.ts'
import { notionSignInErrorMessage, startNotionSignIn } from '../api/notion-sign-in.ts'

/** Notion's mark, drawn in the text colour so it reads in light and dark. */
function NotionMark() {
	return (
		<svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.6">
			<path d="M5.2 3.6 15.6 3c1.3-.1 1.6 0 2.4.6l3 2.1c.5.4.7.5.7.9v12.2c0 .8-.3 1.2-1.2 1.3l-12.1.7c-.7 0-1-.1-1.4-.6l-2.4-3.2c-.4-.6-.6-1-.6-1.5V4.9c0-.6.3-1.2 1.2-1.3Z" />
			<path
				d="M7.3 8.2v9.4M7.3 8.2l11.3-.7M10.2 11.2v6.3l1.4-.1M10.2 11.2l5.5 7M15.7 10.5v7.7"
				strokeLinecap="round"
				strokeLinejoin="round"
			/>
		</svg>
	)
}

/**
 * "Continue with Notion": one consent signs the person in (or up) and connects their Notion
 * workspace. Shown only when the server has Notion's OAuth settings.
 */
export function ContinueWithNotion({ next }: { next: string }) {
	const action = useAsyncAction(startNotionSignIn, {
		onSuccess: (url) => {
			window.location.assign(url)
		},
	})
	return (
		<div className="grid gap-4">
			{action.isError ? (
				<p role="alert" className="rounded-lg border border-error/25 bg-error/5 px-3 py-2.5 text-error text-sm">
					{errorMessage(action.error)}
				</p>
			) : null}
			{/* Still busy after success: the browser is on its way to Notion. */}
			<Button
				type="button"
				variant="outline"
				className="w-full"
				isLoading={action.isPending || action.isSuccess}
				onClick={() => void action.run(next)}
			>
				<NotionMark />
				Continue with Notion
			</Button>
			<div className="flex items-center gap-3 text-muted-foreground text-xs" aria-hidden="true">
				<span className="h-px flex-1 bg-border" />
				or with your e-mail
				<span className="h-px flex-1 bg-border" />
			</div>
		</div>
	)
}

/**
 * The sign-in page's Notion part: why a Notion sign-in just failed (better-auth's `error` on
 * /login), then the button. Loaded by the page only when Notion sign-in is on, so the sign-in
 * page of an install without it stays within its first-load budget.
 */
export function NotionSignInSection({ next, failure }: { next: string; failure: string | null }) {
	return (
		<div className="grid gap-4">
			{failure ? (
				<p role="alert" className="rounded-lg border border-error/25 bg-error/5 px-3 py-2.5 text-error text-sm">
					{notionSignInErrorMessage(failure)}
				</p>
			) : null}
			<ContinueWithNotion next={next} />
		</div>
	)
}
