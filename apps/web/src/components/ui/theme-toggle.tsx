import { Monitor, Moon, Sun } from 'lucide-react'
import { Button } from './button.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuLabel,
	DropdownMenuRadioGroup,
	DropdownMenuRadioItem,
	DropdownMenuTrigger,
} from './dropdown-menu.tsx'
import { isTheme, type Theme, useTheme } from './theme.tsx'

// Apart from theme.tsx on purpose: the provider runs on every page, the menu only where it is shown.

const choices = [
	{ value: 'light', label: 'Light', icon: Sun },
	{ value: 'dark', label: 'Dark', icon: Moon },
	{ value: 'system', label: 'System', icon: Monitor },
] as const

/** An icon button (for the app header) that opens a Light / Dark / System menu. */
export function ThemeToggle({ className }: { className?: string }) {
	const { theme, resolvedTheme, setTheme } = useTheme()
	const CurrentIcon = resolvedTheme === 'dark' ? Moon : Sun
	return (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<Button variant="ghost" size="icon" className={className} aria-label={`Theme: ${labelOf(theme)}`}>
					<CurrentIcon aria-hidden />
				</Button>
			</DropdownMenuTrigger>
			<DropdownMenuContent className="min-w-36">
				<DropdownMenuLabel>Theme</DropdownMenuLabel>
				<DropdownMenuRadioGroup value={theme} onValueChange={(value) => isTheme(value) && setTheme(value)}>
					{choices.map(({ value, label, icon: Icon }) => (
						<DropdownMenuRadioItem key={value} value={value}>
							<Icon aria-hidden />
							{label}
						</DropdownMenuRadioItem>
					))}
				</DropdownMenuRadioGroup>
			</DropdownMenuContent>
		</DropdownMenu>
	)
}

function labelOf(theme: Theme): string {
	return choices.find((choice) => choice.value === theme)?.label ?? theme
}
