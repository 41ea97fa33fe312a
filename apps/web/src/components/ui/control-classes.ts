/**
 * The look shared by every text-like control (input, textarea, select trigger), so they line up in a form.
 * 16 px text on phones: iOS zooms the page into any focused field whose text is smaller.
 */
export const controlClasses = [
	'w-full min-w-0 rounded-md border border-input bg-background px-3 text-base text-foreground shadow-xs sm:text-sm',
	'transition-[border-color,box-shadow] duration-150 placeholder:text-muted-foreground',
	'outline-hidden focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/30',
	'disabled:cursor-not-allowed disabled:opacity-50',
	'aria-invalid:border-error aria-invalid:focus-visible:ring-error/20',
	'dark:bg-input/20',
].join(' ')
